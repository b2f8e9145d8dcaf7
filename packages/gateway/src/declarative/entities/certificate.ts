// kong/db/schema/entities/certificates.lua, with node:crypto in place of lua-resty-openssl.
import { X509Certificate, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { CheckContext, FieldTable, RecordSchema } from '../schema.ts';
import { mutuallyRequired } from '../schema.ts';
import { ID, TAGS } from './common.ts';

const reason = (e: unknown): string => (e instanceof Error ? e.message : String(e));

function parseCertificate(pem: string): X509Certificate {
  if (!pem.includes('-----BEGIN')) throw new Error('no PEM data found');
  return new X509Certificate(pem);
}

// typedefs.lua validate_certificate / validate_key: "invalid certificate: <openssl error>".
function validateCertificate(pem: string): string | undefined {
  try {
    parseCertificate(pem);
    return undefined;
  } catch (e) {
    return `invalid certificate: x509.new: ${reason(e)}`;
  }
}

function validateKey(pem: string): string | undefined {
  try {
    createPrivateKey(pem);
    return undefined;
  } catch (e) {
    return `invalid key: pkey.new: ${reason(e)}`;
  }
}

function spki(key: KeyObject): string {
  return key.export({ type: 'spki', format: 'der' }).toString('base64');
}

function matches(certPem: string, keyPem: string): boolean {
  return spki(parseCertificate(certPem).publicKey) === spki(createPublicKey(createPrivateKey(keyPem)));
}

function pairCheck(certField: string, keyField: string, message: string): (ctx: CheckContext) => void {
  return (ctx) => {
    const cert = ctx.entity[certField];
    const key = ctx.entity[keyField];
    if (typeof cert !== 'string' || typeof key !== 'string' || ctx.hasError(certField) || ctx.hasError(keyField)) return;
    if (!matches(cert, key)) ctx.entityError(message);
  };
}

function differentKeyTypes(ctx: CheckContext): void {
  const { cert, cert_alt: alt } = ctx.entity;
  if (typeof cert !== 'string' || typeof alt !== 'string' || ctx.hasError('cert') || ctx.hasError('cert_alt')) return;
  if (parseCertificate(cert).publicKey.asymmetricKeyType === parseCertificate(alt).publicKey.asymmetricKeyType) {
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

/** The PEM fields that must be YAML block scalars (spec §7). */
export const PEM_FIELDS = ['cert', 'key', 'cert_alt', 'key_alt'] as const;

/** The certificate record schema. */
export const CERTIFICATE_SCHEMA: RecordSchema = {
  fields: CERTIFICATE_FIELDS,
  checks: [
    mutuallyRequired(['cert_alt', 'key_alt']),
    pairCheck('cert', 'key', 'certificate does not match key'),
    pairCheck('cert_alt', 'key_alt', 'alternative certificate does not match key'),
    differentKeyTypes,
  ],
};
