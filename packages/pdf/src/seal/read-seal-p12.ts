import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import * as pkijs from 'pkijs';
import { arrayBufferOf } from './array-buffer-of.ts';

// PKCS#12 bag types (RFC 7292 §4.2); forge's oids table types them as possibly missing.
const BAG = { key: '1.2.840.113549.1.12.10.1.1', shroudedKey: '1.2.840.113549.1.12.10.1.2', cert: '1.2.840.113549.1.12.10.1.3' } as const;

/** What a seal P12 holds: the private key, the certificate that matches it, and every certificate (the chain). */
export type SealKey = { key: KeyObject; certificate: pkijs.Certificate; certificateDer: Uint8Array; chain: pkijs.Certificate[] };

/**
 * Opens a PKCS#12 bundle (forge reads the PBE-SHA1-3DES bundles openssl and our dev seal write)
 * and finds the certificate whose public key is the private key's. Throws on a wrong passphrase,
 * a damaged file, or a bundle without a matching pair.
 */
export function readSealP12(p12: Uint8Array, passphrase: string): SealKey {
  const bundle = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(Buffer.from(p12).toString('binary')), false, passphrase);
  const bags = (bagType: string): forge.pkcs12.Bag[] => bundle.getBags({ bagType })[bagType] ?? [];
  const keyBag = bags(BAG.shroudedKey)[0] ?? bags(BAG.key)[0];
  if (!keyBag?.key) throw new Error('The P12 holds no private key.');
  const key = createPrivateKey(forge.pki.privateKeyToPem(keyBag.key));
  if (key.asymmetricKeyType !== 'rsa') throw new Error('The seal key must be RSA.');
  const spki = (k: KeyObject) => (k.type === 'public' ? k : createPublicKey(k)).export({ type: 'spki', format: 'der' });
  const ours = spki(key);
  const chain: pkijs.Certificate[] = [];
  let match: { certificate: pkijs.Certificate; der: Uint8Array } | undefined;
  for (const bag of bags(BAG.cert)) {
    if (!bag.cert) continue;
    const der = new Uint8Array(Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(bag.cert)).getBytes(), 'binary'));
    const certificate = pkijs.Certificate.fromBER(arrayBufferOf(der));
    chain.push(certificate);
    const pem = `-----BEGIN CERTIFICATE-----\n${Buffer.from(der).toString('base64')}\n-----END CERTIFICATE-----\n`;
    if (!match && spki(createPublicKey(pem)).equals(ours)) match = { certificate, der };
  }
  if (!match) throw new Error('The P12 holds no certificate for its private key.');
  return { key, certificate: match.certificate, certificateDer: match.der, chain };
}
