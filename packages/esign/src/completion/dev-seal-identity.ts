import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { ensurePrivateDir } from '@signet/kit';
import { join } from 'node:path';
import { createDevSealP12, type SealIdentity } from '@signet/pdf';

/** The file (in DATA_DIR) holding the development seal: `{p12Base64, passphrase}`. */
export const DEV_SEAL_FILE = 'seal-dev.json';

/**
 * The development seal of a data directory, generated on first use and persisted, so every
 * instance sharing the directory (and every restart) seals with the same certificate. The file
 * is published with link(2), which fails if it exists: of two instances generating at once,
 * the first link wins and both read the winner's file. Production passes its own P12.
 */
export function loadOrCreateDevSeal(dataDir: string): SealIdentity {
  const file = join(dataDir, DEV_SEAL_FILE);
  const read = (): SealIdentity => {
    const { p12Base64, passphrase } = JSON.parse(readFileSync(file, 'utf8')) as { p12Base64: string; passphrase: string };
    return { p12: new Uint8Array(Buffer.from(p12Base64, 'base64')), passphrase };
  };
  try {
    return read();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  ensurePrivateDir(dataDir);
  const identity = createDevSealP12({ commonName: 'Signet development seal' });
  const temp = `${file}.${process.pid}.${Date.now()}`;
  writeFileSync(temp, JSON.stringify({ p12Base64: Buffer.from(identity.p12).toString('base64'), passphrase: identity.passphrase }), { mode: 0o600 });
  try {
    linkSync(temp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(temp, { force: true });
  }
  return read();
}
