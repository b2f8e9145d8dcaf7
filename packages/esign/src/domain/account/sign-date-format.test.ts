import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatSignDate, formatSignTime, SIGN_DATE_FORMATS, SIGN_TIME_FORMATS } from './sign-date-format.ts';

const at = new Date('2026-03-07T15:04:09Z');
const morning = new Date('2026-11-21T00:30:05Z');

test('every date format writes the UTC day as its pattern says', () => {
  const expected: Record<(typeof SIGN_DATE_FORMATS)[number], string> = {
    'MM/dd/yyyy': '03/07/2026', 'M/d/yyyy': '3/7/2026', 'dd/MM/yyyy': '07/03/2026', 'd/M/yyyy': '7/3/2026', 'yyyy/MM/dd': '2026/03/07',
    'yyyy-MM-dd': '2026-03-07', 'MM-dd-yyyy': '03-07-2026', 'dd-MM-yyyy': '07-03-2026', 'dd.MM.yyyy': '07.03.2026', 'd.M.yyyy': '7.3.2026',
    'MMM d, yyyy': 'Mar 7, 2026', 'MMMM d, yyyy': 'March 7, 2026', 'd MMM yyyy': '7 Mar 2026', 'd MMMM yyyy': '7 March 2026', 'dd-MMM-yyyy': '07-Mar-2026',
  };
  for (const format of SIGN_DATE_FORMATS) assert.equal(formatSignDate(at, format), expected[format], format);
  assert.equal(formatSignDate(morning, 'MMMM d, yyyy'), 'November 21, 2026');
});

test('every time format writes the UTC time; AM/PM on the 12-hour clock; none is nothing', () => {
  const expected: Record<(typeof SIGN_TIME_FORMATS)[number], [string, string]> = {
    'h:mm tt': ['3:04 PM', '12:30 AM'], 'h:mm:ss tt': ['3:04:09 PM', '12:30:05 AM'], 'hh:mm tt': ['03:04 PM', '12:30 AM'], 'hh:mm:ss tt': ['03:04:09 PM', '12:30:05 AM'],
    'HH:mm': ['15:04', '00:30'], 'HH:mm:ss': ['15:04:09', '00:30:05'], none: ['', ''],
  };
  for (const format of SIGN_TIME_FORMATS) assert.deepEqual([formatSignTime(at, format), formatSignTime(morning, format)], expected[format], format);
});
