// Signs JWTs as a client would (Kong's spec uses jwt_parser's encode): base64url JSON parts and
// the algorithm's signature, with keys generated for the test run.
import { createHmac, generateKeyPairSync, sign, constants, type KeyObject } from 'node:crypto';

const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');

/** A key pair for an asymmetric algorithm: the private half signs, the PEM public half goes into kong.yml. */
export type TestKey = { readonly privateKey: KeyObject; readonly publicPem: string };

/** A fresh key pair of the given kind. */
export function testKey(kind: 'rsa' | 'P-256' | 'P-384' | 'P-521' | 'ed25519' | 'ed448'): TestKey {
  const pair = kind === 'rsa'
    ? generateKeyPairSync('rsa', { modulusLength: 2048 })
    : kind === 'ed25519' || kind === 'ed448'
      ? generateKeyPairSync(kind as 'ed25519')
      : generateKeyPairSync('ec', { namedCurve: kind });
  return { privateKey: pair.privateKey, publicPem: pair.publicKey.export({ type: 'spki', format: 'pem' }) as string };
}

const DIGEST: Record<string, string> = { 256: 'sha256', 384: 'sha384', 512: 'sha512' };

/** A signed token; `header` replaces the default `{typ: JWT, alg}`. */
export function signJwt(claims: object, alg: string, key: string | Buffer | KeyObject, header: object = { typ: 'JWT', alg }): string {
  const input = `${b64(header)}.${b64(claims)}`;
  const bits = alg.slice(2);
  let signature: Buffer;
  if (alg.startsWith('HS')) signature = createHmac(DIGEST[bits]!, key).update(input).digest();
  else if (alg === 'EdDSA') signature = sign(null, Buffer.from(input), key);
  else if (alg.startsWith('ES')) signature = sign(DIGEST[bits], Buffer.from(input), { key: key as KeyObject, dsaEncoding: 'ieee-p1363' });
  else if (alg.startsWith('PS')) signature = sign(DIGEST[bits], Buffer.from(input), { key: key as KeyObject, padding: constants.RSA_PKCS1_PSS_PADDING });
  else signature = sign(DIGEST[bits], Buffer.from(input), key);
  return `${input}.${signature.toString('base64url')}`;
}

/** A PEM as a YAML block scalar at `indent` spaces. */
export const yamlBlock = (pem: string, indent: number): string => `|\n${pem.trimEnd().split('\n').map((l) => ' '.repeat(indent) + l).join('\n')}`;
