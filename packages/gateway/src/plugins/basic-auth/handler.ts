// kong/plugins/basic-auth/access.lua: `Basic base64(username:password)` from Proxy-Authorization,
// then Authorization; the password checked against the stored salted SHA-1 digest.
import { hashBasicAuthPassword } from '../../declarative/index.ts';
import type { BasicauthCredential } from '../../declarative/types.ts';
import type { PluginHandler } from '../plugin-handler.ts';
import { BASIC_AUTH_SCHEMA } from './schema.ts';
import type { PluginContext, PluginExit } from '../plugin-context.ts';
import { secretsEqual, type ConsumerIndex } from '../consumer-index.ts';
import { authAccess, setConsumer } from '../set-consumer.ts';

type BasicAuthConfig = { readonly anonymous: string | null; readonly hide_credentials: boolean; readonly realm: string };

const BASE64_CHARS = /^[A-Za-z0-9+/]*$/;

/** nginx's ngx_decode_base64: valid characters up to the first `=`, padding optional; else undefined. */
export function decodeBase64Like(text: string): Buffer | undefined {
  const eq = text.indexOf('=');
  const body = eq === -1 ? text : text.slice(0, eq);
  if (!BASE64_CHARS.test(body) || body.length % 4 === 1) return undefined;
  return Buffer.from(body, 'base64');
}

// retrieve_credentials: the first `basic <token>` anywhere in the value, its token decoded,
// split at the first colon (a username cannot contain one; an empty one is no match).
function credentialsOf(value: string | undefined): { username: string; password: string } | undefined {
  if (value === undefined) return undefined;
  const m = /\s*[Bb]asic\s*(.+)/.exec(value);
  if (m === null) return undefined;
  const decoded = decodeBase64Like(m[1]!);
  if (decoded === undefined) return undefined;
  const parts = /([^:]+):(.*)/.exec(decoded.toString('utf8'));
  return parts === null ? undefined : { username: parts[1]!, password: parts[2]! };
}

function passwordMatches(credential: BasicauthCredential, given: string): boolean {
  return secretsEqual(hashBasicAuthPassword(given, credential.consumer.id), credential.password);
}

function authenticate(conf: BasicAuthConfig, ctx: PluginContext, consumers: ConsumerIndex, challenge: Record<string, string>): PluginExit | undefined {
  const unauthorized: PluginExit = { status: 401, message: 'Unauthorized', headers: challenge };
  const authorization = ctx.firstHeader('authorization');
  const proxyAuthorization = ctx.firstHeader('proxy-authorization');
  if (authorization === undefined && proxyAuthorization === undefined) return unauthorized;
  let given = credentialsOf(proxyAuthorization);
  if (conf.hide_credentials) ctx.clearHeader('proxy-authorization');
  let credential = given === undefined ? undefined : consumers.basicauthCredential(given.username);
  if (credential === undefined) {
    given = credentialsOf(authorization);
    if (conf.hide_credentials) ctx.clearHeader('authorization');
    if (given === undefined) return unauthorized;
    credential = consumers.basicauthCredential(given.username);
  }
  if (credential === undefined || !passwordMatches(credential, given!.password)) return unauthorized;
  setConsumer(ctx, consumers.consumer(credential.consumer.id), { identifier: credential.username, consumerId: credential.consumer.id });
  return undefined;
}

/** basic-auth, PRIORITY 1100. */
export const BASIC_AUTH_HANDLER: PluginHandler = {
  name: BASIC_AUTH_SCHEMA.name,
  priority: BASIC_AUTH_SCHEMA.priority,
  build(config, consumers) {
    const conf = config as BasicAuthConfig;
    const challenge = { 'WWW-Authenticate': `Basic realm="${conf.realm}"` };
    const anonymous = conf.anonymous;
    const access = authAccess(consumers, anonymous, (ctx) => authenticate(conf, ctx, consumers, challenge));
    return { access };
  },
};
