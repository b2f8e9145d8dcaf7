import type { PDFFont } from 'pdf-lib';

/**
 * Replaces what a standard (WinAnsi) font cannot encode with "?" and drops control
 * characters: pdf-lib throws on the first unencodable character, and a signer's name or an
 * audit event's user agent is client input.
 */
export function safeText(font: PDFFont, text: string): string {
  const supported = new Set(font.getCharacterSet());
  let out = '';
  for (const ch of text.replace(/[\r\n\t]+/g, ' ')) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp < 0x20) continue;
    out += supported.has(cp) ? ch : '?';
  }
  return out;
}
