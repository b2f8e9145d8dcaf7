// kong/plugins/correlation-id/handler.lua: the request's id header, kept when the client sent
// one, else generated (uuid, uuid#counter, tracker); set for the upstream, added to the log
// entry as `correlation_id`, and echoed to the client with echo_downstream.
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { PluginHandler } from '../plugin-handler.ts';
import { FRAMING_HEADERS, type PluginContext } from '../plugin-context.ts';
import { lowerName } from '../lower-name.ts';
import { CORRELATION_ID_SCHEMA } from './schema.ts';

type CorrelationIdConfig = {
  readonly header_name: string;
  readonly generator: 'uuid' | 'uuid#counter' | 'tracker';
  readonly echo_downstream: boolean;
};

// Kong's init_worker: one uuid per worker, and a counter after it.
const workerUuid = randomUUID();
let workerCounter = 0;

// nginx's $connection (a serial number per connection) and $connection_requests, for tracker.
let connections = 0;
const connectionState = new WeakMap<Socket, { serial: number; requests: number }>();

function tracker(socket: Socket | undefined): string {
  if (socket === undefined) return `--${process.pid}---${(Date.now() / 1000).toFixed(3)}`;
  let state = connectionState.get(socket);
  if (state === undefined) connectionState.set(socket, (state = { serial: ++connections, requests: 0 }));
  state.requests++;
  return `${socket.localAddress ?? ''}-${socket.localPort ?? ''}-${process.pid}-${state.serial}-${state.requests}-${(Date.now() / 1000).toFixed(3)}`;
}

const GENERATORS: Readonly<Record<CorrelationIdConfig['generator'], (ctx: PluginContext) => string>> = {
  uuid: () => randomUUID(),
  'uuid#counter': () => `${workerUuid}#${++workerCounter}`,
  tracker: (ctx) => tracker(ctx.socket),
};

const KEY = 'correlation-id';

/** correlation-id, PRIORITY 100001. */
export const CORRELATION_ID_HANDLER: PluginHandler = {
  name: CORRELATION_ID_SCHEMA.name,
  priority: CORRELATION_ID_SCHEMA.priority,
  build(config) {
    const conf = config as CorrelationIdConfig;
    const generate = GENERATORS[conf.generator];
    const lower = lowerName(conf.header_name);
    // A generated id never breaks a line; a framing header's name is refused by setHeader, per request.
    const known = !FRAMING_HEADERS.has(lower);
    return {
      access(ctx) {
        let id = ctx.firstHeader(conf.header_name);
        if (id === undefined || id === '') {
          id = generate(ctx);
          if (known) ctx.setKnownHeader(lower, conf.header_name, id);
          else ctx.setHeader(conf.header_name, id);
        }
        (ctx.serializeValues ??= {}).correlation_id = id;
        if (conf.echo_downstream) (ctx.shared ??= {})[KEY] = id;
        return undefined;
      },
      ...(conf.echo_downstream ? {
        headerFilter(ctx, head) {
          let id = ctx.shared?.[KEY] as string | undefined ?? ctx.firstHeader(conf.header_name);
          if (id === undefined || id === '') id = generate(ctx);
          head.set(conf.header_name, id);
        },
      } : {}),
    };
  },
};
