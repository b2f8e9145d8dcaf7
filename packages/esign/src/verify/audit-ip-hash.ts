import { createHmac } from 'node:crypto';

/**
 * An audit-trail IP address as /verify shows it when the account chose hashed IPs: HMAC-SHA-256
 * under the account's own secret key, over the envelope and the address, cut to 16 hex digits.
 * Keyed, because a plain hash of an IPv4 address is undone by hashing all 2^32 of them; per
 * envelope, so one address cannot be followed from envelope to envelope; stable, so a reader sees
 * which events came from the same address (docs/pdf.md, "Verification").
 */
export function hashAuditIp(key: string, envelopeId: string, address: string): string {
  return createHmac('sha256', Buffer.from(key, 'hex')).update(`${envelopeId}\n${address}`).digest('hex').slice(0, 16);
}
