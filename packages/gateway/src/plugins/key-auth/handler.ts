// kong/plugins/key-auth/handler.lua: a key from the first of `key_names` found in a header,
// the query string or (key_in_body) the body; Kong's messages and WWW-Authenticate on failure.
import type { PluginHandler } from '../plugin-handler.ts';
import { KEY_AUTH_SCHEMA } from './schema.ts';
import type { PluginContext, PluginExit } from '../plugin-context.ts';
import type { ConsumerIndex } from '../consumer-index.ts';
import { authAccess, setConsumer } from '../set-consumer.ts';
import { requestBodyArgs, setRequestBody, type BodyArgs } from '../request-body.ts';

type KeyAuthConfig = {
  readonly key_names: readonly string[];
  readonly hide_credentials: boolean;
  readonly anonymous: string | null;
  readonly key_in_header: boolean;
  readonly key_in_query: boolean;
  readonly key_in_body: boolean;
  readonly run_on_preflight: boolean;
  readonly realm: string | null;
};

type Outcome = PluginExit | undefined | Promise<PluginExit | undefined>;

/**
 * `body` is the parsed body once read (null where Kong's get_body fails and the plugin goes on
 * with an empty table), undefined before: the body is read only when a lookup reaches it, and
 * the lookup then starts over with it (clearing a header or argument twice changes nothing).
 */
/** The instance's fixed answers, built once (closures made per request cost a defineProperty each under tsx's keepNames). */
type Answers = { readonly duplicate: PluginExit; readonly missing: PluginExit; readonly unknown: PluginExit };

function answersOf(conf: KeyAuthConfig): Answers {
  const challenge = { 'WWW-Authenticate': conf.realm === null ? 'Key' : `Key realm="${conf.realm}"` };
  const unauthorized = (message: string): PluginExit => ({ status: 401, message, headers: challenge });
  return { duplicate: unauthorized('Duplicate API key found'), missing: unauthorized('No API key found in request'), unknown: unauthorized('Unauthorized') };
}

/** The lookup again with the body read (key_in_body): only requests that reach the body pay for this. */
function withBody(conf: KeyAuthConfig, ctx: PluginContext, consumers: ConsumerIndex, answers: Answers): Outcome {
  const read = requestBodyArgs(ctx);
  const again = (b: BodyArgs | undefined): Outcome => authenticate(conf, ctx, consumers, answers, b ?? null);
  return read instanceof Promise ? read.then(again) : again(read);
}

function authenticate(conf: KeyAuthConfig, ctx: PluginContext, consumers: ConsumerIndex, answers: Answers, body?: BodyArgs | null): Outcome {
  let key: string | undefined;
  for (const name of conf.key_names) {
    let v: unknown = conf.key_in_header ? ctx.header(name) : undefined;
    if (v === undefined && conf.key_in_query) v = ctx.queryArg(name);
    if (v === undefined && conf.key_in_body) {
      if (body === undefined) return withBody(conf, ctx, consumers, answers);
      v = body?.args.get(name);
    }
    if (typeof v === 'string') {
      key = v;
      if (conf.hide_credentials) {
        ctx.clearQueryArg(name);
        ctx.clearHeader(name);
        // ctx.header() finds `api_key` in an `api-key` header too (nginx's lookup); clearing only
        // the configured spelling sent the key upstream under the other (Kong clears only `name`).
        if (name.includes('_')) ctx.clearHeader(name.replace(/_/g, '-'));
        // Kong writes the body back without the field wherever the key was found.
        if (conf.key_in_body) {
          if (body === undefined) return withBody(conf, ctx, consumers, answers);
          if (body !== null) {
            body.args.delete(name);
            setRequestBody(ctx, body);
          }
        }
      }
      break;
    }
    // The same name twice (header, query or body), or a JSON object or array: Kong refuses
    // rather than picking one (any Lua table is a duplicate there).
    if (typeof v === 'object' && v !== null) return answers.duplicate;
  }
  if (key === undefined || key === '') return answers.missing;
  const credential = consumers.keyauthCredential(key);
  if (credential === undefined) return answers.unknown;
  setConsumer(ctx, consumers.consumer(credential.consumer.id), { identifier: credential.id, consumerId: credential.consumer.id });
  return undefined;
}

/** key-auth, PRIORITY 1250. */
export const KEY_AUTH_HANDLER: PluginHandler = {
  name: KEY_AUTH_SCHEMA.name,
  priority: KEY_AUTH_SCHEMA.priority,
  build(config, consumers) {
    const conf = config as KeyAuthConfig;
    const answers = answersOf(conf);
    const access = authAccess(consumers, conf.anonymous, (ctx) => authenticate(conf, ctx, consumers, answers));
    return {
      access(ctx) {
        if (!conf.run_on_preflight && ctx.method === 'OPTIONS') return undefined;
        return access(ctx);
      },
    };
  },
};
