import { createHmac } from 'node:crypto';

/**
 * The X-DocuSign-Signature-1..N headers of one message: base64(HMAC-SHA256(key, raw body)) for
 * each active key, in key order (compat/esign-wire.md §6.8; DocuSign "HMAC security"). The
 * listener recomputes the HMAC over the exact bytes it received and accepts the message when
 * any header matches, so keys can be rotated without a gap.
 */
export function connectSignatures(secrets: readonly string[], rawBody: string): Record<string, string> {
  const headers: Record<string, string> = {};
  secrets.forEach((secret, i) => {
    headers[`x-docusign-signature-${i + 1}`] = createHmac('sha256', secret).update(rawBody, 'utf8').digest('base64');
  });
  return headers;
}
