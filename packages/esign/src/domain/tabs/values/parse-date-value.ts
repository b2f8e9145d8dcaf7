/**
 * A date as a signer types it in a date tab: ISO 8601 (2026-11-21) or the en-US form DocuSign
 * shows by default (11/21/2026, 1/2/2026). Answers the calendar date, or undefined when the text
 * is neither or names a day the calendar lacks (2026-02-30).
 */
export function parseDateValue(text: string): { year: number; month: number; day: number } | undefined {
  const t = text.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  const [year, month, day] = iso ? [Number(iso[1]), Number(iso[2]), Number(iso[3])] : us ? [Number(us[3]), Number(us[1]), Number(us[2])] : [];
  if (year === undefined || month === undefined || day === undefined) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return { year, month, day };
}
