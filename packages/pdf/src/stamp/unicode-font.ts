import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/**
 * IPAGothic (IPA Font License 1.0), from Debian's fonts-ipafont-gothic, which scripts/setup.mjs
 * installs: Japanese (kana, kanji) beside Latin, Greek and Cyrillic. The certificate of completion
 * is printed with it when its text has characters the standard WinAnsi fonts cannot encode (a
 * Japanese certificate, a signer's name in another script); embedded as a subset, so a
 * certificate carries only the glyphs it uses.
 */
export const UNICODE_FONT_PATH = '/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf';

let cached: Promise<Uint8Array | undefined> | undefined;

/** Whether the font is installed (a deployment without it prints such text as `?`). */
export function unicodeFontAvailable(): boolean {
  return existsSync(UNICODE_FONT_PATH);
}

/**
 * The font's bytes, read once per process; undefined when it is not installed (not retried per
 * document: a later install is seen after a restart).
 */
export function loadUnicodeFont(): Promise<Uint8Array | undefined> {
  cached ??= readFile(UNICODE_FONT_PATH).then((b) => new Uint8Array(b), () => undefined);
  return cached;
}
