import { createHmac } from 'node:crypto';

/**
 * The HMAC headers of one message (DocuSign "HMAC security"; docs/esign-connect.md, "HMAC"):
 * X-DocuSign-Signature-1..N, base64(HMAC-SHA256(key, raw body)) for each active key in key
 * order, with the two headers DocuSign sends beside them: X-Authorization-Digest naming the
 * algorithm (DocuSign's listener samples refuse a message without "HMACSHA256" there) and
 * X-DocuSign-AccountId (the account, to pick its keys when one listener serves several). The
 * listener recomputes the HMAC over the exact bytes it received and accepts the message when any
 * signature matches, so keys can be rotated without a gap. No key: no headers (unsigned).
 */
export function connectSignatures(secrets: readonly string[], rawBody: string, accountId: string): Record<string, string> {
  if (secrets.length === 0) return {};
  const headers: Record<string, string> = { 'x-authorization-digest': 'HMACSHA256', 'x-docusign-accountid': accountId };
  secrets.forEach((secret, i) => {
    headers[`x-docusign-signature-${i + 1}`] = createHmac('sha256', secret).update(rawBody, 'utf8').digest('base64');
  });
  return headers;
}
