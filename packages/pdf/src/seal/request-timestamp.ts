import { createHash, randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { PdfError } from '../pdf-error.ts';
import { fetchOnceMore } from './fetch-once-more.ts';
import { readBounded } from './read-bounded.ts';
import { arrayBufferOf } from './array-buffer-of.ts';

/** Where trusted time comes from: an RFC 3161 TSA over HTTP(S), optionally with Basic credentials. */
export type TimestampAuthority = {
  readonly url: string;
  readonly username?: string | undefined;
  readonly password?: string | undefined;
  /** Per request; default 15 s. */
  readonly timeoutMs?: number;
};

export const SHA256_OID = '2.16.840.1.101.3.4.2.1';
const TST_INFO_OID = '1.2.840.113549.1.9.16.1.4';
// A token is a few KB (the TSA's chain included); anything far larger is not one.
const MAX_REPLY_BYTES = 256 * 1024;

/** A timestamp token (CMS ContentInfo, DER) and the time it vouches for. */
export type TimestampToken = { readonly der: Uint8Array; readonly genTime: Date };


/**
 * Asks the TSA to timestamp `data` (RFC 3161 §3.4: POST application/timestamp-query) with a
 * SHA-256 imprint, a fresh nonce and certReq, so the token carries the TSA's certificate chain.
 * The reply is checked before it is used: granted, the imprint and nonce are ours, and the
 * token's signature verifies with the certificate inside it. Anything else is TIMESTAMP_FAILED.
 */
export async function requestTimestamp(tsa: TimestampAuthority, data: Uint8Array): Promise<TimestampToken> {
  const digest = createHash('sha256').update(data).digest();
  const nonce = randomBytes(8);
  // A positive INTEGER in minimal DER: first octet 0x40-0x7f (a leading 0x00 before a byte
  // under 0x80 is not DER, and TSAs, openssl's among them, refuse the whole query).
  nonce[0] = ((nonce[0] ?? 0) & 0x3f) | 0x40;
  const query = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: SHA256_OID }),
      hashedMessage: new asn1js.OctetString({ valueHex: arrayBufferOf(digest) }),
    }),
    nonce: new asn1js.Integer({ valueHex: arrayBufferOf(nonce) }),
    certReq: true,
  }).toSchema().toBER(false);

  const headers: Record<string, string> = { 'content-type': 'application/timestamp-query' };
  if (tsa.username !== undefined) headers.authorization = `Basic ${Buffer.from(`${tsa.username}:${tsa.password ?? ''}`).toString('base64')}`;
  let reply: Uint8Array;
  try {
    const res = await fetchOnceMore(tsa.url, { method: 'POST', headers, body: new Uint8Array(query), timeoutMs: tsa.timeoutMs ?? 15_000 });
    if (res.status !== 200) throw new Error(`the TSA answered HTTP ${res.status}`);
    reply = await readBounded(res, MAX_REPLY_BYTES);
  } catch (err) {
    throw new PdfError('TIMESTAMP_FAILED', `The TSA at ${new URL(tsa.url).origin} did not answer: ${(err as Error).message}.`, { cause: err });
  }
  return checkReply(reply, data, digest, nonce);
}

async function checkReply(reply: Uint8Array, data: Uint8Array, digest: Buffer, nonce: Buffer): Promise<TimestampToken> {
  const fail = (why: string, cause?: unknown): never => {
    throw new PdfError('TIMESTAMP_FAILED', `The TSA's reply was refused: ${why}.`, cause ? { cause } : undefined);
  };
  let response: pkijs.TimeStampResp;
  try {
    response = pkijs.TimeStampResp.fromBER(arrayBufferOf(reply));
  } catch (err) {
    return fail('it is not a TimeStampResp', err);
  }
  const status = response.status.status;
  if ((status !== pkijs.PKIStatus.granted && status !== pkijs.PKIStatus.grantedWithMods) || !response.timeStampToken) {
    return fail(`status ${status}${response.status.statusStrings ? ` (${response.status.statusStrings.map((s) => s.valueBlock.value).join('; ')})` : ''}`);
  }
  const token = response.timeStampToken;
  const signed = new pkijs.SignedData({ schema: token.content });
  if (signed.encapContentInfo.eContentType !== TST_INFO_OID || !signed.encapContentInfo.eContent) return fail('the token holds no TSTInfo');
  const info = pkijs.TSTInfo.fromBER(signed.encapContentInfo.eContent.getValue());
  const imprint = new Uint8Array(info.messageImprint.hashedMessage.valueBlock.valueHexView);
  if (info.messageImprint.hashAlgorithm.algorithmId !== SHA256_OID || !Buffer.from(imprint).equals(digest)) return fail('it timestamps other data');
  const echoed = info.nonce ? Buffer.from(info.nonce.valueBlock.valueHexView) : undefined;
  if (!echoed || BigInt(`0x${echoed.toString('hex')}`) !== BigInt(`0x${nonce.toString('hex')}`)) return fail('its nonce is not ours');
  let ok = false;
  try {
    // pkijs re-checks the TSTInfo imprint against the data as it verifies the signature.
    ok = await signed.verify({ signer: 0, data: arrayBufferOf(data), checkChain: false, extendedMode: false });
  } catch (err) {
    return fail('its signature does not verify', err);
  }
  if (!ok) fail('its signature does not verify');
  return { der: new Uint8Array(token.toSchema().toBER(false)), genTime: info.genTime };
}
