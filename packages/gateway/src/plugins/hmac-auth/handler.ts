// kong/plugins/hmac-auth/access.lua: a Date or X-Date within clock_skew, then
// `hmac username="…", algorithm="…", headers="…", signature="…"` from Proxy-Authorization or
// Authorization, the signing string rebuilt from the listed headers (plus `@request-target` and
// `request-line`), and the HMAC compared in constant time; with validate_request_body, the
// Digest header checked against the body's SHA-256.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { HmacauthCredential } from '../../declarative/types.ts';
import type { PluginHandler } from '../plugin-handler.ts';
import type { PluginContext, PluginExit } from '../plugin-context.ts';
import type { ConsumerIndex } from '../consumer-index.ts';
import { authAccess, setConsumer } from '../set-consumer.ts';
import { decodeBase64Like } from '../basic-auth/handler.ts';
import { parseHttpDate } from './parse-http-date.ts';
import { HMAC_AUTH_SCHEMA } from './schema.ts';

type HmacAuthConfig = {
  readonly hide_credentials: boolean;
  readonly clock_skew: number;
  readonly anonymous: string | null;
  readonly validate_request_body: boolean;
  readonly enforce_headers: readonly string[] | null;
  readonly algorithms: readonly string[];
  readonly realm: string | null;
};

type HmacParams = { username: string; algorithm: string; headers: string[]; signature: string };

const DIGESTS: Readonly<Record<string, string>> = { 'hmac-sha1': 'sha1', 'hmac-sha256': 'sha256', 'hmac-sha384': 'sha384', 'hmac-sha512': 'sha512' };
// Kong's pattern, greedy as PCRE is: the last `", signature="` wins.
const HMAC_FIELDS = /\s*[Hh]mac\s*username="(.+)",\s*algorithm="(.+)",\s*headers="(.+)",\s*signature="(.+)"/;
const NOT_VALID = 'HMAC signature cannot be verified';
const NOT_SAME = 'HMAC signature does not match';

function retrieveFields(value: string | undefined): HmacParams | undefined {
  const m = value === undefined ? null : HMAC_FIELDS.exec(value);
  return m === null ? undefined : { username: m[1]!, algorithm: m[2]!, headers: m[3]!.split(' '), signature: m[4]! };
}

function withinSkew(ctx: PluginContext, header: string, skew: number, now: number): boolean {
  const value = ctx.firstHeader(header);
  const time = value === undefined ? undefined : parseHttpDate(value);
  return time !== undefined && Math.abs(now - time) <= skew;
}

// create_hash: each listed header as "name: value", a missing one as "name:", the two
// pseudo-headers from the request itself; lines joined by "\n".
function signingString(ctx: PluginContext, headers: readonly string[]): string {
  return headers.map((header) => {
    const value = ctx.firstHeader(header);
    if (value !== undefined) return `${header}: ${value}`;
    if (header === '@request-target') return `${header}: ${ctx.method.toLowerCase()} ${ctx.target}`;
    if (header === 'request-line') return `${ctx.method} ${ctx.target} HTTP/${ctx.httpVersion}`;
    return `${header}:`;
  }).join('\n');
}

function signatureMatches(ctx: PluginContext, params: HmacParams, credential: HmacauthCredential): boolean {
  const expected = createHmac(DIGESTS[params.algorithm]!, credential.secret).update(signingString(ctx, params.headers)).digest();
  const given = decodeBase64Like(params.signature);
  return given !== undefined && given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * validate_body: without a Digest header only an empty body passes; with one, it must be
 * `SHA-256=<base64 of the body's SHA-256>` (compared in constant time). A body that cannot be
 * read (past the proxy's bound, or a gRPC call) fails, as Kong's get_raw_body error does.
 */
function bodyMatchesDigest(ctx: PluginContext, body: Buffer | undefined): boolean {
  if (body === undefined) return false;
  const received = ctx.firstHeader('digest');
  if (received === undefined) return body.length === 0;
  const expected = Buffer.from(`SHA-256=${createHash('sha256').update(body).digest('base64')}`);
  const given = Buffer.from(received);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function authenticate(conf: HmacAuthConfig, ctx: PluginContext, consumers: ConsumerIndex, challenge: Record<string, string>): PluginExit | undefined | Promise<PluginExit | undefined> {
  const unauthorized = (message: string): PluginExit => ({ status: 401, message, headers: challenge });
  const authorization = ctx.firstHeader('authorization');
  const proxyAuthorization = ctx.firstHeader('proxy-authorization');
  if (authorization === undefined && proxyAuthorization === undefined) return unauthorized('Unauthorized');
  const now = Math.floor(Date.now() / 1000);
  if (!withinSkew(ctx, 'x-date', conf.clock_skew, now) && !withinSkew(ctx, 'date', conf.clock_skew, now)) {
    return unauthorized(`${NOT_VALID}, a valid date or x-date header is required for HMAC Authentication`);
  }
  let params = retrieveFields(proxyAuthorization);
  if (params === undefined) {
    params = retrieveFields(authorization);
    if (conf.hide_credentials) ctx.clearHeader('authorization');
  } else if (conf.hide_credentials) ctx.clearHeader('proxy-authorization');
  // validate_params: fields present, enforced headers signed, algorithm allowed.
  if (params === undefined) return unauthorized(NOT_VALID);
  const signed = new Set(params.headers);
  if ((conf.enforce_headers ?? []).some((h) => !signed.has(h))) return unauthorized(NOT_VALID);
  if (!conf.algorithms.includes(params.algorithm)) return unauthorized(NOT_VALID);
  const credential = consumers.hmacauthCredential(params.username);
  if (credential === undefined) return unauthorized(NOT_VALID);
  if (!signatureMatches(ctx, params, credential)) return unauthorized(NOT_SAME);
  const authenticated = (): undefined => {
    setConsumer(ctx, consumers.consumer(credential.consumer.id), { identifier: credential.username, consumerId: credential.consumer.id });
    return undefined;
  };
  if (!conf.validate_request_body) return authenticated();
  const verdict = (body: Buffer | undefined): PluginExit | undefined => (bodyMatchesDigest(ctx, body) ? authenticated() : unauthorized(NOT_SAME));
  const body = ctx.rawBody();
  return body instanceof Promise ? body.then(verdict) : verdict(body);
}

/** hmac-auth, PRIORITY 1030. */
export const HMAC_AUTH_HANDLER: PluginHandler = {
  name: HMAC_AUTH_SCHEMA.name,
  priority: HMAC_AUTH_SCHEMA.priority,
  build(config, consumers) {
    const conf = config as HmacAuthConfig;
    const challenge = { 'WWW-Authenticate': conf.realm === null ? 'hmac' : `hmac realm="${conf.realm}"` };
    const anonymous = conf.anonymous;
    const access = authAccess(consumers, anonymous, (ctx) => authenticate(conf, ctx, consumers, challenge));
    return { access };
  },
};
