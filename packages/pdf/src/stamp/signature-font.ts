import { readFile } from 'node:fs/promises';
import { PdfError } from '../pdf-error.ts';

/**
 * Dancing Script (SIL Open Font License 1.1), from Debian's fonts-dancingscript, which
 * scripts/setup.mjs installs. The signing page can serve the same file so that what the
 * signer adopts is what gets stamped.
 */
export const SIGNATURE_FONT_PATH = '/usr/share/fonts/opentype/dancingscript/DancingScript-Regular.otf';

/** The handwriting-style font for typed signatures. */
export async function loadSignatureFont(path: string = SIGNATURE_FONT_PATH): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (err) {
    throw new PdfError('CONVERSION_FAILED', `The signature font ${path} is missing (Debian package fonts-dancingscript).`, { cause: err });
  }
}
