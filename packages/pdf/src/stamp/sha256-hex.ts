import { createHash } from 'node:crypto';

/** Lower-case hex SHA-256, as printed on the certificate of completion. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
