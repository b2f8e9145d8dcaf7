import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { ensurePrivateDir } from '@signet/kit';
import { join } from 'node:path';

/** The key file under DATA_DIR when CONNECT_SECRET_KEY is unset. */
export const SECRET_KEY_FILE = 'connect-secret.key';

/**
 * The key that seals HMAC secrets: CONNECT_SECRET_KEY when set (config.ts validated it: 32
 * bytes), else a random key kept in DATA_DIR/connect-secret.key (mode 0600), created by the
 * first instance that needs it. Instances on one host share DATA_DIR; instances on several
 * hosts (PostgreSQL) must be given the same CONNECT_SECRET_KEY.
 */
export function loadSecretKey(configured: Uint8Array | undefined, dataDir: string): Uint8Array {
  if (configured) return configured;
  ensurePrivateDir(dataDir);
  const file = join(dataDir, SECRET_KEY_FILE);
  // Written whole under a private name, then linked into place: link() fails when the file
  // exists, so two instances starting at once keep the first one's key, and no reader ever
  // sees a half-written file.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(draft, { force: true });
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.byteLength !== 32) throw new Error(`${file} does not hold a base64 32-byte key`);
  return key;
}
