// nginx's ngx_parse_http_time, which hmac-auth's clock-skew check uses: the three HTTP-date
// forms of RFC 9110 §5.6.7 (IMF-fixdate, RFC 850, asctime), always GMT; else undefined.

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
// "Sun, 06 Nov 1994 08:49:37 GMT" · "Sunday, 06-Nov-94 08:49:37 GMT" · "Sun Nov  6 08:49:37 1994"
const IMF = /^\s*[A-Za-z]+,\s+(\d{1,2})[ -]([A-Za-z]{3})[ -](\d{2}|\d{4})\s+(\d{2}):(\d{2}):(\d{2})\s*(?:GMT)?\s*$/;
const ASCTIME = /^\s*[A-Za-z]+\s+([A-Za-z]{3})\s+(\d{1,2})\s+(\d{2}):(\d{2}):(\d{2})\s+(\d{4})\s*$/;

/** Seconds since the epoch, or undefined when the text is no HTTP date. */
export function parseHttpDate(text: string): number | undefined {
  const imf = IMF.exec(text);
  const asc = imf === null ? ASCTIME.exec(text) : null;
  if (imf === null && asc === null) return undefined;
  // Both as [day, month, year, hh, mm, ss].
  const [day, month, year, hh, mm, ss] = imf !== null ? imf.slice(1) : [asc![2], asc![1], asc![6], asc![3], asc![4], asc![5]] as string[];
  const mon = MONTHS.indexOf(month!.toLowerCase());
  let y = Number(year);
  // RFC 850 two-digit years: nginx adds 1900 (70-99) or 2000.
  if (year!.length === 2) y += y < 70 ? 2000 : 1900;
  const [d, h, mi, s] = [Number(day), Number(hh), Number(mm), Number(ss)];
  if (mon === -1 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return undefined;
  return Date.UTC(y, mon, d, h, mi, s) / 1000;
}
