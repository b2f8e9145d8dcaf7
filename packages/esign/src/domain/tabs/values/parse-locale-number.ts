import type { NumberLocale } from '../tab.ts';

/**
 * A number as a signer types it in the tab's culture: an optional sign, digits with optional
 * group separators every three digits, an optional decimal part. Answers undefined for anything
 * else (letters, two decimal separators, misplaced groups).
 */
export function parseLocaleNumber(text: string, locale: NumberLocale): number | undefined {
  const t = text.trim().replace(/\u00a0|\u202f/g, ' ');
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '[ \\u00a0\\u202f]');
  const group = escape(locale.group === '\u00a0' || locale.group === '\u202f' ? ' ' : locale.group);
  const decimal = escape(locale.decimal);
  const shape = new RegExp(`^([-+])?(\\d{1,3}(?:${group}\\d{3})+|\\d+)?(?:${decimal}(\\d+))?$`);
  const m = shape.exec(t);
  if (!m || (m[2] === undefined && m[3] === undefined)) return undefined;
  const integer = (m[2] ?? '0').replace(/\D/g, '');
  const n = Number(`${m[1] ?? ''}${integer}.${m[3] ?? '0'}`);
  return Number.isFinite(n) ? n : undefined;
}
