/**
 * DocuSign's timestamp spelling: UTC with seven fractional digits, e.g.
 * "2026-11-21T19:15:18.7470000Z" (seven fractional digits, as DocuSign's responses carry them).
 */
export function toDocuSignDateTime(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$10000Z');
}
