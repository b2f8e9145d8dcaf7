// kong/plugins/key-auth/handler.lua: a key from the first of `key_names` found in a header or
// the query string; Kong's messages and WWW-Authenticate on failure.
import type { PluginHandler } from '../plugin-handler.ts';
import { KEY_AUTH_SCHEMA } from './schema.ts';
import type { PluginContext, PluginExit } from '../plugin-context.ts';
import type { ConsumerIndex } from '../consumer-index.ts';
import { authAccess, setConsumer } from '../set-consumer.ts';

type KeyAuthConfig = {
  readonly key_names: readonly string[];
  readonly hide_credentials: boolean;
  readonly anonymous: string | null;
  readonly key_in_header: boolean;
  readonly key_in_query: boolean;
  readonly run_on_preflight: boolean;
  readonly realm: string | null;
};

function authenticate(conf: KeyAuthConfig, ctx: PluginContext, consumers: ConsumerIndex, challenge: Record<string, string>): PluginExit | undefined {
  const unauthorized = (message: string): PluginExit => ({ status: 401, message, headers: challenge });
  let key: string | undefined;
  for (const name of conf.key_names) {
    let v: unknown = conf.key_in_header ? ctx.header(name) : undefined;
    if (v === undefined && conf.key_in_query) v = ctx.queryArg(name);
    if (typeof v === 'string') {
      key = v;
      if (conf.hide_credentials) {
        ctx.clearQueryArg(name);
        ctx.clearHeader(name);
      }
      break;
    }
    // The same name twice (header or query): Kong refuses rather than picking one.
    if (Array.isArray(v)) return unauthorized('Duplicate API key found');
  }
  if (key === undefined || key === '') return unauthorized('No API key found in request');
  const credential = consumers.keyauthCredential(key);
  if (credential === undefined) return unauthorized('Unauthorized');
  setConsumer(ctx, consumers.consumer(credential.consumer.id), { identifier: credential.id, consumerId: credential.consumer.id });
  return undefined;
}

/** key-auth, PRIORITY 1250. */
export const KEY_AUTH_HANDLER: PluginHandler = {
  name: KEY_AUTH_SCHEMA.name,
  priority: KEY_AUTH_SCHEMA.priority,
  build(config, consumers) {
    const conf = config as KeyAuthConfig;
    const challenge = { 'WWW-Authenticate': conf.realm === null ? 'Key' : `Key realm="${conf.realm}"` };
    const anonymous = conf.anonymous;
    const access = authAccess(consumers, anonymous, (ctx) => authenticate(conf, ctx, consumers, challenge));
    return {
      access(ctx) {
        if (!conf.run_on_preflight && ctx.method === 'OPTIONS') return undefined;
        return access(ctx);
      },
    };
  },
};
