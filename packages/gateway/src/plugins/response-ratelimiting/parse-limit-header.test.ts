// The upstream's X-Kong-Limit report, read as Kong's header_filter.lua parse_header reads it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLimitHeader } from './parse-limit-header.ts';

const LIMITS = { video: {}, image: {} };
const parse = (...values: string[]) => Object.fromEntries(parseLimitHeader(values, LIMITS));

const CASES: [string, string[], Record<string, number>][] = [
  ['one item', ['video=1'], { video: 1 }],
  ['several items, spaces stripped', [' video = 2 , image=1'], { video: 2, image: 1 }],
  ['an unknown name is ignored', ['audio=3, video=1'], { video: 1 }],
  ['a negative report moves the counter back', ['video=-1'], { video: -1 }],
  ['not a base-10 integer: no increment', ['video=1.5, image=0x10'], {}],
  ['a later bad value clears an earlier one (Lua nil)', ['video=2, video=x'], {}],
  ['an item without exactly one = is skipped', ['video, image=1=2, video=3'], { video: 3 }],
  ['several header lines: one item each, not split on commas', ['video=2', 'image=1'], { video: 2, image: 1 }],
  ['several lines, a line with a comma is one (bad) item', ['video=2, image=1', 'image=4'], { image: 4 }],
  ['no header', [], {}],
];

for (const [title, values, expected] of CASES) test(`parseLimitHeader: ${title}`, () => assert.deepEqual(parse(...values), expected));
