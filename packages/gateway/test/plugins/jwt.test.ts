// jwt against a real two-worker gateway: cases from Kong's spec/03-plugins/16-jwt/03-access_spec.lua
// (refusals and their exact bodies and WWW-Authenticate, every algorithm, token sources, claims,
// maximum_expiration, anonymous, logical AND / OR with key-auth), one route per configuration.
import { test } from 'node:test';
import { checkCase, startPluginGateway, type PluginCase } from './plugins.fixture.ts';
import { signJwt, testKey, yamlBlock, type TestKey } from './jwt-signer.fixture.ts';

const ANON = 'a0000000-0000-4000-8000-000000000002';
const GHOST = 'dead0000-0000-4000-8000-000000000004';
const USER1 = 'b0000000-0000-4000-8000-000000000011';
const USER2 = 'b0000000-0000-4000-8000-000000000012';
const MOUSE = 'c0000000-0000-4000-8000-000000000013';

// Asymmetric credentials: [consumer, key, algorithm, key kind].
const ASYMMETRIC: [string, string, string, Parameters<typeof testKey>[0]][] = [
  ['rsa256', 'rs256-key', 'RS256', 'rsa'], ['rsa384', 'rs384-key', 'RS384', 'rsa'], ['rsa512', 'rs512-key', 'RS512', 'rsa'],
  ['es256', 'es256-key', 'ES256', 'P-256'], ['es384', 'es384-key', 'ES384', 'P-384'], ['es512', 'es512-key', 'ES512', 'P-521'],
  ['ps256', 'ps256-key', 'PS256', 'rsa'], ['ps512', 'ps512-key', 'PS512', 'rsa'],
  ['ed25519', 'ed25519-key', 'EdDSA', 'ed25519'], ['ed448', 'ed448-key', 'EdDSA', 'ed448'],
];
const KEYS = new Map<string, TestKey>(ASYMMETRIC.map(([, key, , kind]) => [key, testKey(kind)]));
const B64_ORIGINAL = 'the original secret';

const route = (host: string, config = '{}', more = ''): string => `
      - name: ${host.replace(/\./g, '-')}
        hosts: [${host}]
        plugins: [{ name: jwt, config: ${config} }${more}]`;

const yml = (upstream: string): string => `_format_version: "3.0"
consumers:
  - { username: jwt_tests_consumer, jwt_secrets: [{ key: jwt-key-1, secret: secret-1 }] }
  - { username: jwt_tests_consumer_6, jwt_secrets: [{ key: jwt-key-6, secret: secret-6 }] }
  - { username: jwt_tests_base64_consumer, jwt_secrets: [{ key: b64-key, secret: ${Buffer.from(B64_ORIGINAL).toString('base64url')} }] }
  - { username: hs384, jwt_secrets: [{ key: hs384-key, secret: secret-384, algorithm: HS384 }] }
  - { username: hs512, jwt_secrets: [{ key: hs512-key, secret: secret-512, algorithm: HS512 }] }
  - { username: es-without-key, jwt_secrets: [{ key: es-nokey, algorithm: ES256 }] }
${ASYMMETRIC.map(([consumer, key, alg]) => `  - username: ${consumer}
    jwt_secrets:
      - key: ${key}
        algorithm: ${alg}
        rsa_public_key: ${yamlBlock(KEYS.get(key)!.publicPem, 10)}`).join('\n')}
  - { id: ${ANON}, username: no-body }
  - { id: ${USER1}, username: Mickey, keyauth_credentials: [{ id: ${MOUSE}, key: Mouse }] }
  - { id: ${USER2}, username: Aladdin, jwt_secrets: [{ key: aladdin-key, secret: aladdin-secret }] }
services:
  - name: echo
    url: ${upstream}
    routes:${route('jwt1.test')}${route('jwt2.test', '{ uri_param_names: [token, jwt] }')}${route('jwt3.test', '{ claims_to_verify: [nbf, exp] }')}${route('jwt4.test', '{ key_claim_name: aud }')}${route('jwt5.test', '{ secret_is_base64: true }')}${route('jwt6.test', `{ anonymous: ${ANON} }`)}${route('jwt7.test', `{ anonymous: ${GHOST} }`)}${route('jwt8.test', '{ run_on_preflight: false }')}${route('jwt9.test', '{ cookie_names: [silly, crumble], realm: test-jwt }')}${route('jwt10.test', '{ key_claim_name: kid }')}${route('jwt11.test', '{ claims_to_verify: [nbf, exp], maximum_expiration: 300 }')}${route('jwt12.test', '{ header_names: [CustomAuthorization] }')}${route('jwt13.test', '{ anonymous: no-body }')}${route('logical-and.test', '{}', ', { name: key-auth }')}${route('logical-or.test', `{ anonymous: ${ANON} }`, `, { name: key-auth, config: { anonymous: ${ANON} } }`)}
`;

const now = Math.floor(Date.now() / 1000);
const PAYLOAD = { nbf: now, iat: now, exp: now + 3600 };
const hs = (iss: string | undefined, secret: string, more: object = {}): string => signJwt({ ...PAYLOAD, iss, ...more }, 'HS256', secret);
const token1 = hs('jwt-key-1', 'secret-1');
const bearer = (t: string): string => `Bearer ${t}`;
const on = (host: string, headers: Record<string, string | string[]> = {}) => ({ Host: host, ...headers });
const INVALID = { 'WWW-Authenticate': 'Bearer error="invalid_token"' };
const REALM_INVALID = { 'WWW-Authenticate': 'Bearer realm="test-jwt", error="invalid_token"' };
const msg = (message: string) => ({ message });

const ok = (title: string, path: string, headers: Record<string, string | string[]>, username?: string, identifier?: string): PluginCase => ({
  title, path, headers, status: 200,
  ...(username === undefined ? {} : {
    upstreamHeaders: { 'X-Consumer-Username': username, 'X-Anonymous-Consumer': undefined, ...(identifier === undefined ? {} : { 'X-Credential-Identifier': identifier }) },
  }),
});

const CASES: PluginCase[] = [
  // refusals
  { title: 'no JWT', path: '/request', headers: on('jwt1.test'), status: 401, body: msg('Unauthorized'), responseHeaders: { 'WWW-Authenticate': 'Bearer' } },
  { title: 'no key claim', path: '/request', headers: on('jwt1.test', { Authorization: bearer(hs(undefined, 'foo')) }), status: 401, body: msg("No mandatory 'iss' in claims"), responseHeaders: INVALID },
  { title: 'empty key claim', path: '/request', headers: on('jwt1.test', { Authorization: bearer(hs('', 'foo')) }), status: 401, body: msg("Invalid 'iss' in claims"), responseHeaders: INVALID },
  { title: 'iss matches no credential', path: '/request', headers: on('jwt1.test', { Authorization: bearer(hs('123456789', 'secret-1')) }), status: 401, body: msg("No credentials found for given 'iss'"), responseHeaders: INVALID },
  { title: 'invalid signature', path: '/request', headers: on('jwt1.test', { Authorization: bearer(hs('jwt-key-1', 'foo')) }), status: 401, body: msg('Invalid signature'), responseHeaders: INVALID },
  {
    title: 'alg does not match the credential', path: '/request', status: 401, body: msg('Invalid algorithm'), responseHeaders: INVALID,
    headers: on('jwt1.test', { Authorization: bearer(signJwt({ ...PAYLOAD, iss: 'jwt-key-1' }, 'HS256', 'secret-1', { typ: 'JWT', alg: 'RS256' })) }),
  },
  { title: 'unknown alg', path: '/request', headers: on('jwt1.test', { Authorization: bearer(signJwt({ iss: 'jwt-key-1' }, 'HS256', 'secret-1', { alg: 'none' })) }), status: 401, body: msg('Bad token; invalid alg'), responseHeaders: INVALID },
  { title: 'OPTIONS with run_on_preflight false', path: '/request', method: 'OPTIONS', headers: on('jwt8.test'), status: 200 },
  { title: 'OPTIONS with run_on_preflight true', path: '/request', method: 'OPTIONS', headers: on('jwt1.test'), status: 401, body: msg('Unauthorized'), responseHeaders: { 'WWW-Authenticate': 'Bearer' } },
  {
    title: 'exp beyond maximum_expiration', path: `/request/?jwt=${signJwt({ iss: 'jwt-key-1', exp: now + 3600, nbf: now - 30 }, 'HS256', 'secret-1')}`,
    headers: on('jwt11.test'), status: 401, body: { exp: 'exceeds maximum allowed expiration' }, responseHeaders: INVALID,
  },
  ok('exp within maximum_expiration', `/request/?jwt=${signJwt({ iss: 'jwt-key-1', exp: now + 270, nbf: now - 30 }, 'HS256', 'secret-1')}`, on('jwt11.test')),
  { title: 'several different tokens', path: `/request?jwt=${token1}`, headers: on('jwt1.test', { Authorization: 'Bearer invalid.jwt.token' }), status: 401, body: msg('Multiple tokens provided'), responseHeaders: INVALID },
  ok('the same token twice is one token', `/request?jwt=${token1}`, on('jwt1.test', { Authorization: bearer(token1) }), 'jwt_tests_consumer', 'jwt-key-1'),
  { title: 'a query argument without a value', path: '/request?jwt', headers: on('jwt1.test'), status: 401, body: msg('Unrecognizable token'), responseHeaders: INVALID },
  { title: 'an ES secret without a public key', path: '/request', headers: on('jwt1.test', { Authorization: bearer(signJwt({ iss: 'es-nokey' }, 'ES256', KEYS.get('es256-key')!.privateKey)) }), status: 401, body: msg('Invalid key/secret'), responseHeaders: INVALID },
  // HS256
  {
    title: 'HS256 verified: token and consumer headers upstream', path: '/request', headers: on('jwt1.test', { Authorization: bearer(token1) }), status: 200,
    upstreamHeaders: { Authorization: bearer(token1), 'X-Consumer-Username': 'jwt_tests_consumer', 'X-Credential-Identifier': 'jwt-key-1', 'X-Anonymous-Consumer': undefined },
  },
  ok('key in the token header (kid)', '/request', on('jwt10.test', { Authorization: bearer(signJwt(PAYLOAD, 'HS256', 'secret-6', { typ: 'JWT', alg: 'HS256', kid: 'jwt-key-6' })) }), 'jwt_tests_consumer_6', 'jwt-key-6'),
  ok('key in another claim (aud)', '/request', on('jwt4.test', { Authorization: bearer(signJwt({ ...PAYLOAD, aud: 'jwt-key-1' }, 'HS256', 'secret-1')) }), 'jwt_tests_consumer', 'jwt-key-1'),
  ok('secret_is_base64', '/request', on('jwt5.test', { Authorization: bearer(hs('b64-key', B64_ORIGINAL)) }), 'jwt_tests_base64_consumer', 'b64-key'),
  ok('token in the cookie crumble', '/request', on('jwt9.test', { Cookie: `crumble=${token1}; path=/;domain=.jwt9.test` }), 'jwt_tests_consumer'),
  ok('token in the cookie silly', '/request', on('jwt9.test', { Cookie: `silly=${token1}; path=/;domain=.jwt9.test` })),
  { title: 'cookie token matching no credential', path: '/request', headers: on('jwt9.test', { Cookie: `silly=${hs('incorrect-issuer', 'secret-1')}; path=/` }), status: 401, body: msg("No credentials found for given 'iss'"), responseHeaders: REALM_INVALID },
  { title: 'corrupted cookie token', path: '/request', headers: on('jwt9.test', { Cookie: `silly=no-way-this-works${token1}; path=/` }), status: 401, body: msg('Bad token; invalid JSON'), responseHeaders: REALM_INVALID },
  ok('no cookie but the Authorization header', '/request', on('jwt9.test', { Authorization: bearer(token1) })),
  { title: 'no token with a realm', path: '/request', headers: on('jwt9.test'), status: 401, responseHeaders: { 'WWW-Authenticate': 'Bearer realm="test-jwt"' } },
  ok('token in a custom header', '/request', on('jwt12.test', { CustomAuthorization: bearer(token1) })),
  ok('the first of a duplicated custom header', '/request', on('jwt12.test', { CustomAuthorization: [bearer(token1), 'Bearer other-token'] })),
  { title: 'the default header is not read when header_names says otherwise', path: '/request', headers: on('jwt12.test', { Authorization: bearer(token1) }), status: 401, body: msg('Unauthorized') },
  ok('token in the URL', `/request/?jwt=${token1}`, on('jwt1.test')),
  ok('token in a custom URL parameter', `/request/?token=${token1}`, on('jwt2.test')),
  ok('HS384', '/request', on('jwt1.test', { Authorization: bearer(signJwt({ ...PAYLOAD, iss: 'hs384-key' }, 'HS384', 'secret-384')) }), 'hs384', 'hs384-key'),
  ok('HS512', '/request', on('jwt1.test', { Authorization: bearer(signJwt({ ...PAYLOAD, iss: 'hs512-key' }, 'HS512', 'secret-512')) }), 'hs512', 'hs512-key'),
  // Every asymmetric algorithm verifies and identifies its consumer; a signature by another key does not.
  ...ASYMMETRIC.map(([consumer, key, alg]) => ok(`${alg} (${consumer})`, '/request', on('jwt1.test', { Authorization: bearer(signJwt({ ...PAYLOAD, iss: key }, alg, KEYS.get(key)!.privateKey)) }), consumer, key)),
  {
    title: 'RS256 signed by another key', path: '/request', status: 401, body: msg('Invalid signature'),
    headers: on('jwt1.test', { Authorization: bearer(signJwt({ ...PAYLOAD, iss: 'rs256-key' }, 'RS256', KEYS.get('rs384-key')!.privateKey)) }),
  },
  {
    title: 'ES256 signature of the wrong length', path: '/request', status: 401, body: msg('Invalid signature'),
    headers: on('jwt1.test', { Authorization: bearer(`${signJwt({ ...PAYLOAD, iss: 'es256-key' }, 'ES256', KEYS.get('es256-key')!.privateKey)}AAAA`) }),
  },
  // claims_to_verify
  { title: 'checked claims must be present', path: `/request/?jwt=${signJwt({ iss: 'jwt-key-1' }, 'HS256', 'secret-1')}`, headers: on('jwt3.test'), status: 401, body: { nbf: 'must be a number', exp: 'must be a number' }, responseHeaders: INVALID },
  { title: 'exp in the past', path: `/request/?jwt=${signJwt({ iss: 'jwt-key-1', exp: now - 10, nbf: now - 10 }, 'HS256', 'secret-1')}`, headers: on('jwt3.test'), status: 401, body: { exp: 'token expired' }, responseHeaders: INVALID },
  { title: 'nbf in the future', path: `/request/?jwt=${signJwt({ iss: 'jwt-key-1', exp: now + 100, nbf: now + 50 }, 'HS256', 'secret-1')}`, headers: on('jwt3.test'), status: 401, body: { nbf: 'token not valid yet' }, responseHeaders: INVALID },
  ok('valid exp and nbf', `/request/?jwt=${token1}`, on('jwt3.test')),
  // config.anonymous
  ok('right credentials and anonymous', '/request', on('jwt6.test', { Authorization: bearer(token1) }), 'jwt_tests_consumer', 'jwt-key-1'),
  { title: 'no credentials and anonymous', path: '/request', headers: on('jwt6.test'), status: 200, upstreamHeaders: { 'X-Anonymous-Consumer': 'true', 'X-Consumer-Username': 'no-body', 'X-Credential-Identifier': undefined } },
  { title: 'username as anonymous', path: '/request', headers: on('jwt13.test'), status: 200, upstreamHeaders: { 'X-Anonymous-Consumer': 'true', 'X-Consumer-Username': 'no-body' } },
  { title: 'anonymous consumer that does not exist', path: '/request', headers: on('jwt7.test'), status: 500, message: `anonymous consumer ${GHOST} is configured but doesn't exist` },
  // logical AND: jwt (1450) before key-auth (1250), both required
  {
    title: 'AND: both credentials', path: '/request', headers: on('logical-and.test', { apikey: 'Mouse', Authorization: bearer(hs('aladdin-key', 'aladdin-secret')) }), status: 200,
    upstreamHeaders: { 'X-Anonymous-Consumer': undefined, 'X-Consumer-ID': USER1, 'X-Credential-Identifier': MOUSE },
  },
  { title: 'AND: only the key', path: '/request', headers: on('logical-and.test', { apikey: 'Mouse' }), status: 401, responseHeaders: { 'WWW-Authenticate': 'Bearer' } },
  { title: 'AND: only the token', path: '/request', headers: on('logical-and.test', { Authorization: bearer(hs('aladdin-key', 'aladdin-secret')) }), status: 401, responseHeaders: { 'WWW-Authenticate': 'Key' } },
  { title: 'AND: nothing', path: '/request', headers: on('logical-and.test'), status: 401, responseHeaders: { 'WWW-Authenticate': 'Bearer' } },
  // logical OR: the first to succeed wins
  {
    title: 'OR: both credentials', path: '/request', headers: on('logical-or.test', { apikey: 'Mouse', Authorization: bearer(hs('aladdin-key', 'aladdin-secret')) }), status: 200,
    upstreamHeaders: { 'X-Anonymous-Consumer': undefined, 'X-Consumer-ID': USER2, 'X-Credential-Identifier': 'aladdin-key' },
  },
  { title: 'OR: only the key', path: '/request', headers: on('logical-or.test', { apikey: 'Mouse' }), status: 200, upstreamHeaders: { 'X-Anonymous-Consumer': undefined, 'X-Consumer-ID': USER1 } },
  { title: 'OR: only the token', path: '/request', headers: on('logical-or.test', { Authorization: bearer(hs('aladdin-key', 'aladdin-secret')) }), status: 200, upstreamHeaders: { 'X-Consumer-ID': USER2, 'X-Credential-Identifier': 'aladdin-key' } },
  { title: 'OR: nothing', path: '/request', headers: on('logical-or.test'), status: 200, upstreamHeaders: { 'X-Anonymous-Consumer': 'true', 'X-Consumer-ID': ANON } },
];

test('jwt: Kong access spec cases on two workers', async (t) => {
  const g = await startPluginGateway(t, yml);
  for (const c of CASES) await checkCase(g, c);
});
