import { EsignError } from '../../errors.ts';
import { BRAND_COLOR_NAMES, type BrandColorName, type BrandColors } from './brand.ts';

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/**
 * Brand colours as DocuSign's NameValue list: each name one of BRAND_COLOR_NAMES, each value a
 * CSS hex colour. Only `#rgb`/`#rrggbb` are taken, so a value can never carry CSS or markup into
 * the stylesheet or the mails it is written into; `#rgb` is widened to `#rrggbb`.
 */
export function checkBrandColors(entries: readonly { name: string; value: string }[]): BrandColors {
  const colors: Partial<Record<BrandColorName, string>> = {};
  for (const { name, value } of entries) {
    const known = BRAND_COLOR_NAMES.find((n) => n.toLowerCase() === name.toLowerCase());
    if (!known) throw new EsignError('INVALID_REQUEST_BODY', `colors: "${name}" is not a brand colour; the names are ${BRAND_COLOR_NAMES.join(', ')}.`);
    if (!HEX.test(value)) throw new EsignError('INVALID_REQUEST_BODY', `colors: ${known} must be a hex colour such as #1e4b8f, got "${value}".`);
    const hex = value.toLowerCase();
    colors[known] = hex.length === 4 ? `#${[...hex.slice(1)].map((c) => c + c).join('')}` : hex;
  }
  return colors;
}

/** The colours as DocuSign lists them (NameValue), in the catalog's order. */
export function brandColorList(colors: BrandColors): { name: string; value: string }[] {
  return BRAND_COLOR_NAMES.flatMap((name) => (colors[name] ? [{ name, value: colors[name] }] : []));
}
