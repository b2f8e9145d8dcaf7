import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** A PDF's text as poppler's pdftotext lays it out (`-layout`): an independent reader of what we drew. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-pdftext-'));
  try {
    await writeFile(join(dir, 'doc.pdf'), bytes);
    return (await promisify(execFile)('pdftotext', ['-layout', join(dir, 'doc.pdf'), '-'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
