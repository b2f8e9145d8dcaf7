import { test } from 'node:test';
import assert from 'node:assert/strict';
import { issueCertificate } from '@signet/kit';
import { parseDeclarativeConfig } from './parse-declarative-config.ts';
import { deriveEntityId } from './uuid-v5.ts';
import { GatewayError } from '../errors.ts';
import { WEAK_CERT_PEM, WEAK_KEY_PEM } from '../../test/tls/weak-certificate.fixture.ts';

const a = issueCertificate({ commonName: 'a.test' });
const b = issueCertificate({ commonName: 'b.test' });
const CERT_ID = '00000000-0000-4000-8000-0000000000c1';

const block = (pem: string, indent: string): string => `|\n${pem.trim().split('\n').map((l) => indent + l).join('\n')}\n`;

function certificateYaml(cert: string, key: string, extra = ''): string {
  return `_format_version: "3.0"
certificates:
  - id: ${CERT_ID}
    cert: ${cert}
    key: ${key}${extra}`;
}

function failure(text: string): GatewayError {
  try {
    parseDeclarativeConfig(text);
  } catch (e) {
    if (e instanceof GatewayError) return e;
    throw e;
  }
  assert.fail('expected the configuration to be rejected');
}

test('block-scalar PEMs load; nested snis get the certificate and ids from their names', () => {
  const s = parseDeclarativeConfig(
    certificateYaml(block(a.certPem, '      '), block(a.keyPem, '      '), '    snis:\n      - name: a.test\n      - name: "*.a.test"\n'),
  );
  assert.equal(s.certificates[0]?.cert, a.certPem.trim() + '\n');
  assert.deepEqual(
    s.snis.map((x) => [x.id, x.name, x.certificate.id]),
    [
      [deriveEntityId('snis', 'a.test'), 'a.test', CERT_ID],
      [deriveEntityId('snis', '*.a.test'), '*.a.test', CERT_ID],
    ],
  );
});

test('a PEM that is not a literal block scalar is an invalid certificate, with its line', () => {
  const quoted = JSON.stringify(a.certPem);
  const e = failure(certificateYaml(quoted, block(a.keyPem, '      ')));
  const message = "invalid certificate: 'cert' must be a multi-line YAML block scalar ('cert: |' followed by the PEM lines)";
  assert.deepEqual(e.toBody().fields, { certificates: [{ cert: message }] });
  assert.deepEqual(e.lines, [`kong.yml:4:11: certificates[0].cert: ${message}`]);
  // Folded (>) loses the line breaks: rejected too; so is a plain one-line key.
  const folded = failure(certificateYaml(block(a.certPem, '      ').replace('|', '>'), 'just-a-line'));
  assert.deepEqual(Object.keys((folded.toBody().fields as { certificates: object[] }).certificates[0] ?? {}), ['cert', 'key']);
});

test('JSON input has no block scalars: PEM strings are accepted there', () => {
  const s = parseDeclarativeConfig(JSON.stringify({ _format_version: '3.0', certificates: [{ cert: a.certPem, key: a.keyPem }] }));
  assert.equal(s.certificates.length, 1);
});

test('unparseable PEMs: Kong\'s "invalid certificate:" / "invalid key:" texts', () => {
  const junk = '|\n      -----BEGIN CERTIFICATE-----\n      bm90IGEgY2VydA==\n      -----END CERTIFICATE-----\n';
  const junkKey = '|\n      -----BEGIN PRIVATE KEY-----\n      bm90IGEga2V5\n      -----END PRIVATE KEY-----\n';
  const fields = failure(certificateYaml(junk, junkKey)).toBody().fields as { certificates: [{ cert: string; key: string }] };
  assert.match(fields.certificates[0].cert, /^invalid certificate: x509\.new: /);
  assert.match(fields.certificates[0].key, /^invalid key: pkey\.new: /);
});

test('a key that does not match its certificate is rejected, naming the entity', () => {
  const e = failure(certificateYaml(block(a.certPem, '      '), block(b.keyPem, '      ')));
  assert.deepEqual(e.toBody().fields, { certificates: [{ '@entity': ['certificate does not match key'] }] });
  assert.deepEqual(e.lines, [`kong.yml:3:5: certificates[0] (${CERT_ID}): certificate does not match key`]);
  const flat = e.toBody({ flattenErrors: true }).flattened_errors as { entity_type: string; entity_id: string }[];
  assert.deepEqual(flat.map((f) => [f.entity_type, f.entity_id]), [['certificate', CERT_ID]]);
});

test('a pair that parses and matches but cannot make a TLS context (512-bit RSA) is rejected, naming the entity', () => {
  // node's createSecureContext refuses it ("ee key too small"): loading it would crash every worker.
  const e = failure(certificateYaml(block(WEAK_CERT_PEM, '      '), block(WEAK_KEY_PEM, '      ')));
  const message = 'certificate cannot be used for TLS: error:0A00018F:SSL routines::ee key too small';
  assert.deepEqual(e.toBody().fields, { certificates: [{ '@entity': [message] }] });
  assert.deepEqual(e.lines, [`kong.yml:3:5: certificates[0] (${CERT_ID}): ${message}`]);
  const flat = e.toBody({ flattenErrors: true }).flattened_errors as { entity_type: string; entity_id: string }[];
  assert.deepEqual(flat.map((f) => [f.entity_type, f.entity_id]), [['certificate', CERT_ID]]);
  // The alternative pair is checked the same way, with its own message.
  const alt = failure(certificateYaml(block(a.certPem, '      '), block(a.keyPem, '      '),
    `\n    cert_alt: ${block(WEAK_CERT_PEM, '      ')}    key_alt: ${block(WEAK_KEY_PEM, '      ')}`));
  assert.deepEqual(alt.toBody().fields, { certificates: [{ '@entity': [
    'alternative certificate cannot be used for TLS: error:0A00018F:SSL routines::ee key too small',
    'certificate and alternative certificate need to have different type (e.g. RSA and ECDSA), the provided certificates were both of the same type',
  ] }] });
});

test('top-level snis reference certificates by id; unknown ones and duplicate names are errors', () => {
  const base = certificateYaml(block(a.certPem, '      '), block(a.keyPem, '      '), '    snis: [{ name: a.test }]\n');
  const s = parseDeclarativeConfig(`${base}snis:\n  - { name: b.test, certificate: ${CERT_ID} }\n`);
  assert.deepEqual(s.snis.map((x) => x.certificate.id), [CERT_ID, CERT_ID]);
  const e = failure(`${base}snis:\n  - { name: a.test, certificate: ${CERT_ID} }\n  - { name: c.test, certificate: 00000000-0000-4000-8000-0000000000ff }\n`);
  // Both come from Kong's reference pass, so they share one Lua table: cjson makes it an object.
  assert.deepEqual(e.toBody().fields, {
    snis: {
      1: "uniqueness violation: 'snis' entity with name set to 'a.test' already declared",
      'c.test': ["invalid reference 'certificate: 00000000-0000-4000-8000-0000000000ff' (no such entry in 'certificates')"],
    },
  });
});
