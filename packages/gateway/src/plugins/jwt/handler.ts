// kong/plugins/jwt/handler.lua: one token from the query, cookies or `Bearer` headers; its
// key claim names a jwt_secret, whose algorithm the token must use and whose secret or public
// key must verify it; then exp/nbf and maximum_expiration. Kong answers with
// kong.response.exit, so bodies are plain JSON (claim errors keyed by claim name).
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { JwtSecret } from '../../declarative/types.ts';
import type { PluginHandler } from '../plugin-handler.ts';
import type { PluginContext, PluginExit } from '../plugin-context.ts';
import type { ConsumerIndex } from '../consumer-index.ts';
import { authAccess, setConsumer } from '../set-consumer.ts';
import { decodeBase64Url, decodeJwt, exceedsMaximumExpiration, verifyJwtSignature, verifyRegisteredClaims } from './jwt-token.ts';
import { JWT_SCHEMA } from './schema.ts';

type JwtConfig = {
  readonly uri_param_names: readonly string[] | null;
  readonly cookie_names: readonly string[] | null;
  readonly header_names: readonly string[] | null;
  readonly key_claim_name: string;
  readonly secret_is_base64: boolean;
  readonly claims_to_verify: readonly string[] | null;
  readonly anonymous: string | null;
  readonly run_on_preflight: boolean;
  readonly maximum_expiration: number;
  readonly realm: string | null;
};

const BEARER = /\s*[Bb]earer\s+(.+)/;

/** nginx's $cookie_<name>: the first cookie of that name (case-insensitive) in any Cookie header. */
function cookie(ctx: PluginContext, name: string): string | undefined {
  const headers = ctx.header('cookie');
  if (headers === undefined) return undefined;
  const lower = name.toLowerCase();
  for (const line of typeof headers === 'string' ? [headers] : headers) {
    for (const pair of line.split(';')) {
      const eq = pair.indexOf('=');
      if (eq !== -1 && pair.slice(0, eq).trim().toLowerCase() === lower) return pair.slice(eq + 1).trim();
    }
  }
  return undefined;
}

// retrieve_tokens: every distinct non-empty token found (a query argument without a value
// counts as one that is not a string, as in Kong).
function retrieveTokens(conf: JwtConfig, ctx: PluginContext): Set<string | true> {
  const tokens = new Set<string | true>();
  for (const name of conf.uri_param_names ?? []) {
    const arg = ctx.queryArg(name);
    for (const v of arg === undefined ? [] : Array.isArray(arg) ? arg : [arg]) if (v !== '') tokens.add(v as string | true);
  }
  for (const name of conf.cookie_names ?? []) {
    const v = cookie(ctx, name);
    if (v !== undefined && v !== '') tokens.add(v);
  }
  for (const name of conf.header_names ?? []) {
    const v = ctx.firstHeader(name);
    const m = v === undefined ? null : BEARER.exec(v);
    if (m !== null && m[1] !== '') tokens.add(m[1]!);
  }
  return tokens;
}

/** kong.response.exit with a JSON body (no request id, no Accept negotiation). */
const exit = (body: Record<string, string>, challenge: string, status = 401): PluginExit => ({
  status, message: body.message ?? Object.values(body).join(', '), body, headers: { 'WWW-Authenticate': challenge },
});

function authenticate(conf: JwtConfig, ctx: PluginContext, consumers: ConsumerIndex, keyOf: (s: JwtSecret) => Buffer | KeyObject | undefined): PluginExit | undefined {
  const base = conf.realm === null ? 'Bearer' : `Bearer realm="${conf.realm}"`;
  const invalid = conf.realm === null ? 'Bearer error="invalid_token"' : `${base}, error="invalid_token"`;
  const tokens = retrieveTokens(conf, ctx);
  if (tokens.size === 0) return exit({ message: 'Unauthorized' }, base);
  if (tokens.size > 1) return exit({ message: 'Multiple tokens provided' }, invalid);
  const [token] = tokens;
  if (typeof token !== 'string') return exit({ message: 'Unrecognizable token' }, invalid);
  const jwt = decodeJwt(token);
  if ('error' in jwt) return exit({ message: `Bad token; ${jwt.error}` }, invalid);
  const claim = conf.key_claim_name;
  const fromClaims = jwt.claims[claim];
  const keyValue = fromClaims === undefined || fromClaims === null || fromClaims === false ? jwt.header[claim] : fromClaims;
  if (keyValue === undefined || keyValue === null || keyValue === false) return exit({ message: `No mandatory '${claim}' in claims` }, invalid);
  if (keyValue === '') return exit({ message: `Invalid '${claim}' in claims` }, invalid);
  const secret = typeof keyValue === 'string' ? consumers.jwtSecret(keyValue) : undefined;
  if (secret === undefined) return exit({ message: `No credentials found for given '${claim}'` }, invalid);
  if (jwt.alg !== secret.algorithm) return exit({ message: 'Invalid algorithm' }, invalid);
  const key = keyOf(secret);
  if (key === undefined) return exit({ message: 'Invalid key/secret' }, invalid);
  if (!verifyJwtSignature(jwt, key)) return exit({ message: 'Invalid signature' }, invalid);
  const now = Math.floor(Date.now() / 1000);
  const claimErrors = verifyRegisteredClaims(jwt.claims, conf.claims_to_verify ?? [], now);
  if (claimErrors !== undefined) return exit(claimErrors, invalid);
  if (exceedsMaximumExpiration(jwt.claims, conf.maximum_expiration, now)) return exit({ exp: 'exceeds maximum allowed expiration' }, invalid);
  setConsumer(ctx, consumers.consumer(secret.consumer.id), { identifier: secret.key, consumerId: secret.consumer.id });
  return undefined;
}

/** jwt, PRIORITY 1450. */
export const JWT_HANDLER: PluginHandler = {
  name: JWT_SCHEMA.name,
  priority: JWT_SCHEMA.priority,
  build(config, consumers) {
    const conf = config as JwtConfig;
    const anonymous = conf.anonymous;
    // Each secret's verification key, prepared once per load: HMAC bytes (base64url-decoded
    // when secret_is_base64), or the parsed public key of the asymmetric algorithms.
    const keys = new Map<string, Buffer | KeyObject | undefined>();
    const keyOf = (secret: JwtSecret): Buffer | KeyObject | undefined => {
      if (keys.has(secret.id)) return keys.get(secret.id);
      let key: Buffer | KeyObject | undefined;
      if (secret.algorithm.startsWith('HS')) key = conf.secret_is_base64 ? decodeBase64Url(secret.secret) : Buffer.from(secret.secret);
      else if (secret.rsa_public_key !== null) {
        try {
          key = createPublicKey(secret.rsa_public_key);
        } catch {
          key = undefined;
        }
      }
      keys.set(secret.id, key);
      return key;
    };
    const access = authAccess(consumers, anonymous, (ctx) => authenticate(conf, ctx, consumers, keyOf));
    return {
      access(ctx) {
        if (!conf.run_on_preflight && ctx.method === 'OPTIONS') return undefined;
        return access(ctx);
      },
    };
  },
};
