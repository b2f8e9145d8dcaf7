// kong/plugins/request-size-limiting/handler.lua: a Content-Length over the limit is refused
// before anything reaches the upstream. A body without one (chunked) is counted as it streams
// to the upstream, never buffered (Kong reads it whole first): the proxy enforces the limit the
// access phase leaves on the context (proxy-exchange.ts), and answers the same refusal when it
// is crossed before the upstream has answered (docs/gateway-plugins.md says what happens after).
import type { PluginExit } from '../plugin-context.ts';
import type { PluginHandler } from '../plugin-handler.ts';
import { REQUEST_SIZE_LIMITING_SCHEMA, SIZE_UNITS } from './schema.ts';
import { asksContinue } from '../../proxy/expects-continue.ts';

type RequestSizeLimitingConfig = {
  readonly allowed_payload_size: number;
  readonly size_unit: keyof typeof SIZE_UNITS;
  readonly require_content_length: boolean;
};

/** Kong's message for both refusals (413, or 417 to a client waiting for 100 Continue). */
export const SIZE_LIMIT_MESSAGE = 'Request size limit exceeded';

/** request-size-limiting, PRIORITY 951. */
export const REQUEST_SIZE_LIMITING_HANDLER: PluginHandler = {
  name: REQUEST_SIZE_LIMITING_SCHEMA.name,
  priority: REQUEST_SIZE_LIMITING_SCHEMA.priority,
  build(config) {
    const conf = config as RequestSizeLimitingConfig;
    const allowed = conf.allowed_payload_size * SIZE_UNITS[conf.size_unit];
    return {
      access(ctx): PluginExit | undefined {
        // check_size: a client that sent `Expect: 100-continue` is told 417 instead of 413.
        const status = asksContinue(ctx.firstHeader('expect')) ? 417 : 413;
        const cl = ctx.firstHeader('content-length');
        const length = cl === undefined ? NaN : Number(cl);
        if (cl !== undefined && cl.trim() !== '' && !Number.isNaN(length)) {
          return length > allowed ? { status, message: SIZE_LIMIT_MESSAGE } : undefined;
        }
        // Kong compares the header as sent: only exactly `chunked` passes require_content_length.
        if (conf.require_content_length && ctx.firstHeader('transfer-encoding') !== 'chunked') {
          return { status: 411, message: 'A valid Content-Length header is required' };
        }
        ctx.limitRequestBody(allowed, status);
        return undefined;
      },
    };
  },
};
