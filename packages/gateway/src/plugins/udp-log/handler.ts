// kong/plugins/udp-log/handler.lua: the serialized entry sent as one datagram to host:port
// (no newline); a failure is logged, never retried.
import { createSocket, type Socket } from 'node:dgram';
import { isIPv6 } from 'node:net';
import type { PluginHandler } from '../plugin-handler.ts';
import { logEntryJson } from '../log-entry.ts';
import { pluginLog } from '../plugin-log.ts';
import { UDP_LOG_SCHEMA } from './schema.ts';

type UdpLogConfig = { readonly host: string; readonly port: number };

const sockets: { udp4?: Socket; udp6?: Socket } = {};
function socketFor(type: 'udp4' | 'udp6'): Socket {
  let s = sockets[type];
  if (s === undefined) {
    s = createSocket(type);
    s.on('error', (err) => pluginLog().error({ plugin: 'udp-log' }, `udp-log: ${err.message}`));
    s.unref();
    sockets[type] = s;
  }
  return s;
}

/** udp-log, PRIORITY 8. */
export const UDP_LOG_HANDLER: PluginHandler = {
  name: UDP_LOG_SCHEMA.name,
  priority: UDP_LOG_SCHEMA.priority,
  build(config) {
    const conf = config as UdpLogConfig;
    const socket = socketFor(isIPv6(conf.host) ? 'udp6' : 'udp4');
    return {
      log(ctx, entry) {
        socket.send(logEntryJson(ctx, entry), conf.port, conf.host, (err) => {
          if (err) pluginLog().error({ plugin: 'udp-log' }, `could not send data to ${conf.host}:${conf.port}: ${err.message}`);
        });
      },
    };
  },
};
