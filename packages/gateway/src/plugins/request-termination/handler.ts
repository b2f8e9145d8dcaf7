// kong/plugins/request-termination/handler.lua: every request (or, with `trigger`, those naming
// it as a header or a query argument) is answered in the upstream's place: `body` as is with
// `content_type`, else `{"message": …}` with Kong's default message for the status, else no body.
import type { PluginExit } from '../plugin-context.ts';
import { echoOf } from './echo.ts';
import type { PluginHandler } from '../plugin-handler.ts';
import { REQUEST_TERMINATION_SCHEMA } from './schema.ts';

type RequestTerminationConfig = {
  readonly echo: boolean;
  readonly status_code: number;
  readonly message: string | null;
  readonly content_type: string | null;
  readonly body: string | null;
  readonly trigger: string | null;
};

/** handler.lua's DEFAULT_RESPONSE: the message of a status when `message` is not set. */
export const DEFAULT_RESPONSE: Readonly<Record<number, string>> = {
  401: 'Unauthorized',
  404: 'Not found',
  405: 'Method not allowed',
  500: 'An unexpected error occurred',
  502: 'Bad Gateway',
  503: 'Service unavailable',
};

/** request-termination, PRIORITY 2. */
export const REQUEST_TERMINATION_HANDLER: PluginHandler = {
  name: REQUEST_TERMINATION_SCHEMA.name,
  priority: REQUEST_TERMINATION_SCHEMA.priority,
  build(config) {
    const conf = config as RequestTerminationConfig;
    const status = conf.status_code;
    const message = conf.message ?? DEFAULT_RESPONSE[status];
    // kong.response.exit: a string body goes out as is (Content-Type only when configured); a
    // table as JSON; none, no body at all. gRPC clients get the status as a gRPC code.
    const exit: PluginExit = conf.body !== null
      ? { status, message: conf.body, text: conf.body, ...(conf.content_type === null ? {} : { headers: { 'Content-Type': conf.content_type } }) }
      : message !== undefined
        ? { status, message, body: { message } }
        : { status, message: '', body: null };
    const trigger = conf.trigger;
    return {
      access(ctx) {
        // A header or query argument of that name, with any value (even empty), triggers it.
        if (trigger !== null && ctx.header(trigger) === undefined && ctx.queryArg(trigger) === undefined) return undefined;
        if (!conf.echo) return exit;
        // echo: the request as Kong saw it, its body read whole (bounded) first.
        const raw = ctx.rawBody();
        const answer = (body: Buffer | undefined): PluginExit => ({ status, message: message ?? '', body: echoOf(ctx, message, body) });
        return raw instanceof Promise ? raw.then(answer) : answer(raw);
      },
    };
  },
};
