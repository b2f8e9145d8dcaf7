import { readFile } from 'node:fs/promises';
import { PDFDocument } from 'pdf-lib';
import { sealPdf, type SealIdentity } from '@signet/pdf';
import { EsignConfigError } from '../config.ts';

/**
 * The configured seal (SEAL_P12_FILE, SEAL_P12_PASSPHRASE), checked at start by sealing a blank
 * page: a wrong passphrase or a damaged file stops `serve` with the setting's name instead of
 * failing every completion later.
 */
export async function loadSealIdentity(file: string, passphrase: string): Promise<SealIdentity> {
  let p12: Uint8Array;
  try {
    p12 = new Uint8Array(await readFile(file));
  } catch (err) {
    throw new EsignConfigError(`SEAL_P12_FILE cannot be read: ${(err as Error).message}`);
  }
  const identity = { p12, passphrase };
  const probe = await PDFDocument.create();
  probe.addPage([72, 72]);
  try {
    await sealPdf(await probe.save(), identity);
  } catch (err) {
    throw new EsignConfigError(`SEAL_P12_FILE or SEAL_P12_PASSPHRASE is wrong: ${(err as Error).message}`);
  }
  return identity;
}
