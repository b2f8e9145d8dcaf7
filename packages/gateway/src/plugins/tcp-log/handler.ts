// kong/plugins/tcp-log/handler.lua: the serialized entry and a newline written to host:port,
// over TLS with `tls` (certificate not verified, as Kong's sslhandshake(false, sni, false)). One
// kept-alive connection per destination per process, closed after `keepalive` ms idle; entries
// for a destination that cannot be reached are dropped with a log line, as in Kong.
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { PluginHandler } from '../plugin-handler.ts';
import { logEntryJson } from '../log-entry.ts';
import { pluginLog } from '../plugin-log.ts';
import { TCP_LOG_SCHEMA } from './schema.ts';

type TcpLogConfig = {
  readonly host: string; readonly port: number; readonly timeout: number; readonly keepalive: number; readonly tls: boolean; readonly tls_sni: string | null;
};

/** Bytes a connection may hold unsent before entries are dropped. */
export const MAX_PENDING_BYTES = 16 * 1024 * 1024;

const sockets = new Map<string, Socket>();

function socketFor(conf: TcpLogConfig): Socket {
  const key = `${conf.tls}:${conf.host}:${conf.port}:${conf.tls_sni ?? ''}`;
  const existing = sockets.get(key);
  if (existing !== undefined && !existing.destroyed) return existing;
  const where = `${conf.host}:${conf.port}`;
  const socket = conf.tls
    ? tlsConnect({ host: conf.host, port: conf.port, rejectUnauthorized: false, ...(conf.tls_sni !== null ? { servername: conf.tls_sni } : {}) })
    : netConnect({ host: conf.host, port: conf.port });
  socket.setTimeout(conf.timeout);
  let connected = false;
  socket.once(conf.tls ? 'secureConnect' : 'connect', () => {
    connected = true;
    // Idle connections close after `keepalive` (Kong's setkeepalive).
    socket.setTimeout(conf.keepalive);
  });
  socket.on('timeout', () => socket.destroy(new Error('timeout')));
  socket.on('error', (err: Error) => {
    pluginLog().error({ plugin: 'tcp-log' }, `failed to ${connected ? 'send data' : 'connect'} to ${where}: ${err.message}`);
  });
  socket.on('close', () => {
    if (sockets.get(key) === socket) sockets.delete(key);
  });
  socket.on('data', () => undefined);
  socket.unref();
  sockets.set(key, socket);
  return socket;
}

/** tcp-log, PRIORITY 7. */
export const TCP_LOG_HANDLER: PluginHandler = {
  name: TCP_LOG_SCHEMA.name,
  priority: TCP_LOG_SCHEMA.priority,
  build(config) {
    const conf = config as TcpLogConfig;
    return {
      log(ctx, entry) {
        const socket = socketFor(conf);
        if (socket.writableLength > MAX_PENDING_BYTES) return;
        socket.write(logEntryJson(ctx, entry) + '\n');
      },
    };
  },
};
