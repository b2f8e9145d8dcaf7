import type { PDFFont } from 'pdf-lib';

// A font's character set, made once: a CJK font's has tens of thousands of code points.
const charsets = new WeakMap<PDFFont, ReadonlySet<number>>();

function charsetOf(font: PDFFont): ReadonlySet<number> {
  let set = charsets.get(font);
  if (set === undefined) charsets.set(font, (set = new Set(font.getCharacterSet())));
  return set;
}

/**
 * Replaces what the font cannot encode with "?" and drops control characters: pdf-lib throws on
 * the first unencodable character, and a signer's name or an audit event's user agent is
 * client input. `onMissing` hears of each character replaced.
 */
export function safeText(font: PDFFont, text: string, onMissing?: (ch: string) => void): string {
  const supported = charsetOf(font);
  let out = '';
  for (const ch of text.replace(/[\r\n\t]+/g, ' ')) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp < 0x20) continue;
    if (supported.has(cp)) {
      out += ch;
    } else {
      out += '?';
      onMissing?.(ch);
    }
  }
  return out;
}

/** Whether the font encodes every printable character of `text`. */
export function encodes(font: PDFFont, text: string): boolean {
  const supported = charsetOf(font);
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp >= 0x20 && !supported.has(cp)) return false;
  }
  return true;
}
