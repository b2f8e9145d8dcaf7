// A JWT as Kong's jwt_parser.lua reads it: three dot-separated base64url parts (a fourth dot
// stays in the signature), header and claims JSON, an algorithm from Kong's list; signatures
// verified with node:crypto (HMAC compared in constant time); registered claims exp and nbf
// checked against the clock in whole seconds, as ngx.time() gives it. Pure: time is an argument.
import { createHmac, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import type { JwtAlgorithm } from '../../declarative/types.ts';

/** A decoded token (not verified yet). */
export type JwtToken = {
  readonly header: Readonly<Record<string, unknown>>;
  readonly claims: Readonly<Record<string, unknown>>;
  readonly alg: JwtAlgorithm;
  /** `header64.claims64`: what the signature signs. */
  readonly signingInput: string;
  readonly signature: Buffer;
};

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * nginx's decode_base64url as Kong pads and calls it: characters up to the first `=` must be of
 * the URL alphabet (`+` and `/` are not), and a length of 4n+1 is invalid; else undefined.
 */
export function decodeBase64Url(text: string): Buffer | undefined {
  const eq = text.indexOf('=');
  const body = eq === -1 ? text : text.slice(0, eq);
  if (!BASE64URL.test(body) || body.length % 4 === 1) return undefined;
  return Buffer.from(body, 'base64url');
}

// How each algorithm verifies: an HMAC digest, or node's verify with its digest and options.
type Verifier =
  | { readonly hmac: string }
  | { readonly digest: string | null; readonly padding?: number; readonly dsaEncoding?: 'ieee-p1363'; readonly length?: number };

// RFC 7518 §3.4: ECDSA signatures are r||s of fixed length (64, 96, 132 octets); Kong also
// insists on 256-octet PSS signatures (RSA-2048).
const PSS = 6; // crypto.constants.RSA_PKCS1_PSS_PADDING
const VERIFIERS: Readonly<Record<JwtAlgorithm, Verifier>> = {
  HS256: { hmac: 'sha256' },
  HS384: { hmac: 'sha384' },
  HS512: { hmac: 'sha512' },
  RS256: { digest: 'sha256' },
  RS384: { digest: 'sha384' },
  RS512: { digest: 'sha512' },
  ES256: { digest: 'sha256', dsaEncoding: 'ieee-p1363', length: 64 },
  ES384: { digest: 'sha384', dsaEncoding: 'ieee-p1363', length: 96 },
  ES512: { digest: 'sha512', dsaEncoding: 'ieee-p1363', length: 132 },
  PS256: { digest: 'sha256', padding: PSS, length: 256 },
  PS384: { digest: 'sha384', padding: PSS, length: 256 },
  PS512: { digest: 'sha512', padding: PSS, length: 256 },
  EdDSA: { digest: null },
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseJson(part: string | undefined): unknown {
  const bytes = part === undefined ? undefined : decodeBase64Url(part);
  if (bytes === undefined) throw new SyntaxError('not base64url');
  return JSON.parse(bytes.toString('utf8'));
}

/** Kong's jwt_parser:new: the token, or the reason after "Bad token; ". */
export function decodeJwt(token: string): JwtToken | { readonly error: string } {
  const first = token.indexOf('.');
  const second = first === -1 ? -1 : token.indexOf('.', first + 1);
  const header64 = first === -1 ? token : token.slice(0, first);
  const claims64 = first === -1 ? undefined : token.slice(first + 1, second === -1 ? undefined : second);
  const signature64 = second === -1 ? undefined : token.slice(second + 1);
  let header: unknown;
  let claims: unknown;
  try {
    header = parseJson(header64);
    claims = parseJson(claims64);
    if (signature64 === undefined) throw new SyntaxError('no signature');
  } catch {
    return { error: 'invalid JSON' };
  }
  if (!isObject(header) || !isObject(claims)) return { error: 'invalid JSON' };
  const alg = header.alg;
  if (typeof alg !== 'string' || !Object.hasOwn(VERIFIERS, alg)) return { error: 'invalid alg' };
  const signature = decodeBase64Url(signature64);
  if (signature === undefined) return { error: 'invalid signature' };
  return { header, claims, alg: alg as JwtAlgorithm, signingInput: `${header64}.${claims64}`, signature };
}

/** Whether the signature verifies with `key` (the HMAC secret's bytes, or a public key). */
export function verifyJwtSignature(token: JwtToken, key: Buffer | KeyObject): boolean {
  const how = VERIFIERS[token.alg];
  if ('hmac' in how) {
    if (!Buffer.isBuffer(key)) return false;
    const expected = createHmac(how.hmac, key).update(token.signingInput).digest();
    return expected.length === token.signature.length && timingSafeEqual(expected, token.signature);
  }
  if (Buffer.isBuffer(key)) return false;
  if (how.length !== undefined && token.signature.length !== how.length) return false;
  try {
    return verify(how.digest, Buffer.from(token.signingInput), {
      key,
      ...(how.padding === undefined ? {} : { padding: how.padding }),
      ...(how.dsaEncoding === undefined ? {} : { dsaEncoding: how.dsaEncoding }),
    }, token.signature);
  } catch {
    // A key of another type than the algorithm's (an EC key for RS256): no match.
    return false;
  }
}

/** Kong's registered claims: the error of each claim to verify, in order, or undefined when all pass. */
export function verifyRegisteredClaims(claims: Readonly<Record<string, unknown>>, toVerify: readonly string[], now: number): Record<string, string> | undefined {
  let errors: Record<string, string> | undefined;
  for (const name of toVerify) {
    const value = claims[name];
    let error: string | undefined;
    if (typeof value !== 'number') error = 'must be a number';
    else if (name === 'exp' && value <= now) error = 'token expired';
    else if (name === 'nbf' && value > now) error = 'token not valid yet';
    if (error !== undefined) (errors ??= {})[name] = error;
  }
  return errors;
}

/** Kong's check_maximum_expiration: `exp` must be present and at most `maximum` seconds ahead. */
export function exceedsMaximumExpiration(claims: Readonly<Record<string, unknown>>, maximum: number, now: number): boolean {
  if (maximum <= 0) return false;
  const exp = claims.exp;
  // Kong compares whatever `exp` is; a non-number there would be a Lua error, here a refusal.
  return typeof exp !== 'number' || exp - now > maximum;
}
