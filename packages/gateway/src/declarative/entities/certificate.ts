// kong/db/schema/entities/certificates.lua, with node:crypto in place of lua-resty-openssl.
import { X509Certificate, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { CheckContext, FieldTable, RecordSchema } from '../schema.ts';
import { mutuallyRequired } from '../schema.ts';
import { secureContextFor } from '../../tls/secure-context.ts';
import { ID, TAGS } from './common.ts';

const reason = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** What a PEM parses to: its public key (SPKI, base64 DER) and type, or the parse error. */
type PemInfo = { readonly spki: string; readonly keyType: string | undefined } | { readonly error: string };

// Parsing a PEM costs 0.1-0.5 ms; reloads mostly carry the same ones, so results are memoised
// by text (bounded; the result depends on the text alone).
const CACHE_LIMIT = 1024;
const cache = new Map<string, PemInfo>();

function memo(kind: 'cert' | 'key', pem: string, parse: () => KeyObject): PemInfo {
  const key = `${kind}\0${pem}`;
  let info = cache.get(key);
  if (info === undefined) {
    try {
      const publicKey = parse();
      info = { spki: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'), keyType: publicKey.asymmetricKeyType };
    } catch (e) {
      info = { error: reason(e) };
    }
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(key, info);
  }
  return info;
}

const certInfo = (pem: string): PemInfo =>
  memo('cert', pem, () => {
    if (!pem.includes('-----BEGIN')) throw new Error('no PEM data found');
    return new X509Certificate(pem).publicKey;
  });
const keyInfo = (pem: string): PemInfo => memo('key', pem, () => createPublicKey(createPrivateKey(pem)));

// typedefs.lua validate_certificate / validate_key: "invalid certificate: <openssl error>".
function validateCertificate(pem: string): string | undefined {
  const info = certInfo(pem);
  return 'error' in info ? `invalid certificate: x509.new: ${info.error}` : undefined;
}

function validateKey(pem: string): string | undefined {
  const info = keyInfo(pem);
  return 'error' in info ? `invalid key: pkey.new: ${info.error}` : undefined;
}

function matches(certPem: string, keyPem: string): boolean {
  const cert = certInfo(certPem);
  const key = keyInfo(keyPem);
  return 'spki' in cert && 'spki' in key && cert.spki === key.spki;
}

// Not in Kong's schema: a pair that parses and matches may still be refused by OpenSSL when the
// listener builds its context (a 512-bit RSA key: "ee key too small"). Kong would fail only at
// the handshake; here the worker loading it would crash, so validation builds the context the
// CertificateStore builds. Memoised by text like the PEMs (~1 ms per RSA pair).
const contextErrors = new Map<string, string | null>();

function contextError(certPem: string, keyPem: string): string | undefined {
  const key = `${certPem}\0${keyPem}`;
  let error = contextErrors.get(key);
  if (error === undefined) {
    try {
      secureContextFor(certPem, keyPem);
      error = null;
    } catch (e) {
      error = reason(e);
    }
    if (contextErrors.size >= CACHE_LIMIT) contextErrors.delete(contextErrors.keys().next().value as string);
    contextErrors.set(key, error);
  }
  return error ?? undefined;
}

function pairCheck(certField: string, keyField: string, label: string): (ctx: CheckContext) => void {
  return (ctx) => {
    const cert = ctx.entity[certField];
    const key = ctx.entity[keyField];
    if (typeof cert !== 'string' || typeof key !== 'string' || ctx.hasError(certField) || ctx.hasError(keyField)) return;
    if (!matches(cert, key)) {
      ctx.entityError(`${label} does not match key`);
      return;
    }
    const error = contextError(cert, key);
    if (error !== undefined) ctx.entityError(`${label} cannot be used for TLS: ${error}`);
  };
}

function differentKeyTypes(ctx: CheckContext): void {
  const { cert, cert_alt: alt } = ctx.entity;
  if (typeof cert !== 'string' || typeof alt !== 'string' || ctx.hasError('cert') || ctx.hasError('cert_alt')) return;
  const a = certInfo(cert);
  const b = certInfo(alt);
  if ('keyType' in a && 'keyType' in b && a.keyType === b.keyType) {
    ctx.entityError(
      'certificate and alternative certificate need to have different type (e.g. RSA and ECDSA), ' +
        'the provided certificates were both of the same type',
    );
  }
}

/** The certificate field table (PEM text; `snis` nested records are added by the declarative schema). */
export const CERTIFICATE_FIELDS: FieldTable = [
  ['id', ID],
  ['created_at', { type: 'integer' }],
  ['updated_at', { type: 'integer' }],
  ['cert', { type: 'string', required: true, custom: validateCertificate }],
  ['key', { type: 'string', required: true, custom: validateKey }],
  ['cert_alt', { type: 'string', custom: validateCertificate }],
  ['key_alt', { type: 'string', custom: validateKey }],
  ['tags', TAGS],
];

/** The PEM fields that must be YAML block scalars (docs/gateway-config.md, "Entities and defaults"). */
export const PEM_FIELDS = ['cert', 'key', 'cert_alt', 'key_alt'] as const;

/** The certificate record schema. */
export const CERTIFICATE_SCHEMA: RecordSchema = {
  fields: CERTIFICATE_FIELDS,
  checks: [
    mutuallyRequired(['cert_alt', 'key_alt']),
    pairCheck('cert', 'key', 'certificate'),
    pairCheck('cert_alt', 'key_alt', 'alternative certificate'),
    differentKeyTypes,
  ],
};
