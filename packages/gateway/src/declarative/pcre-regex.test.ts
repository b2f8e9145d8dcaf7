// Operator regexes run on client input. A review showed a route `~/files/(\w+/?)+/download$`
// stalling a worker for minutes on a 40-byte path, and a header regex `~*^(a|aa)+$` likewise.
// Each compiled regex here runs on such an input in a worker thread, which the test can stop:
// an answer within the deadline means the match did not go exponential.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { Worker } from 'node:worker_threads';
import { pollUntil } from '@signet/kit';
import { compileHeaderRegex, compileRouteRegex, validateHeaderRegex, validateRouteRegex } from './pcre-regex.ts';

const RUN = `const { parentPort, workerData } = require('node:worker_threads');
parentPort.postMessage(new RegExp(workerData.source, workerData.flags).test(workerData.input));`;

async function answersOn(t: TestContext, regex: RegExp, input: string): Promise<boolean> {
  let answer: boolean | undefined;
  const worker = new Worker(RUN, { eval: true, workerData: { source: regex.source, flags: regex.flags, input } });
  worker.on('message', (m: boolean) => (answer = m));
  t.after(() => worker.terminate());
  await pollUntil(() => answer !== undefined, { timeoutMs: 20_000, what: `/${regex.source}/${regex.flags} on ${input.length} bytes` });
  return answer!;
}

test('a backtracking-prone route regex answers a hostile path', async (t) => {
  const route = compileRouteRegex('/files/(\\w+/?)+/download$');
  assert.equal(await answersOn(t, route, `/files/${'a'.repeat(60)}!`), false);
  assert.equal(route.test('/files/a/b/download'), true);
});

test('case-insensitive header and (?i) route regexes answer hostile values too', async (t) => {
  const header = compileHeaderRegex('^(a|aa)+$');
  assert.equal(header.flags.includes('i'), false, 'folded, not /i');
  assert.equal(await answersOn(t, header, `${'A'.repeat(60)}!`), false);
  assert.equal(header.test('aAaA'), true);
  const route = compileRouteRegex('(?i)/(x+x+)+y');
  assert.equal(await answersOn(t, route, `/${'X'.repeat(60)}`), false);
  assert.equal(route.test('/XxY'), true);
});

test('validation still reports what JS cannot compile, in Kong\'s words', () => {
  assert.match(validateRouteRegex('/a(') ?? '', /^invalid regex: '\/a\(' \(PCRE returned: /);
  assert.match(validateHeaderRegex('[z-a]') ?? '', /^invalid regex: '\[z-a\]' \(PCRE returned: .*[Rr]ange/);
  assert.equal(validateHeaderRegex('^v(?P<n>\\d)$'), undefined);
});

// Kong dry-runs a regex path with ngx.re, whose PCRE2 error reads `pcre2_compile() failed: <text>
// in "<pattern>"` (typedefs.lua validate_path_with_regexes; 06-routes_spec.lua:285-303 and
// 04-on-the-fly-migration_spec.lua:158-187 expect "missing closing parenthesis").
test('the errors both engines find at the end of the pattern are in PCRE2\'s words', () => {
  const pcre2 = (re: string, text: string): string => `invalid regex: '${re}' (PCRE returned: pcre2_compile() failed: ${text} in "${re}")`;
  assert.equal(validateRouteRegex('/orders/(\\d+'), pcre2('/orders/(\\d+', 'missing closing parenthesis'));
  assert.equal(validateRouteRegex('(?i)/v(1|2'), pcre2('(?i)/v(1|2', 'missing closing parenthesis'));
  assert.equal(validateRouteRegex('/files/[a-z'), pcre2('/files/[a-z', 'missing terminating ] for character class'));
  // In the router's anchoring group a trailing backslash escapes its `)`: judged bare, as PCRE2 sees it.
  assert.equal(validateRouteRegex('/tail\\'), pcre2('/tail\\', '\\ at end of pattern'));
  assert.equal(validateHeaderRegex('^(beta'), pcre2('^(beta', 'missing closing parenthesis'));
});

test('where PCRE2 may stop earlier or elsewhere, V8\'s reason is kept', () => {
  // PCRE2 refuses \g before it reaches the end; JS takes it as "g".
  assert.equal(validateRouteRegex('/(\\g'), "invalid regex: '/(\\g' (PCRE returned: Unterminated group)");
  // `[]` opens a class holding `]` in PCRE2, an empty class in JS.
  assert.equal(validateRouteRegex('/[]x('), "invalid regex: '/[]x(' (PCRE returned: Unterminated group)");
  // Errors with an offset inside the pattern (PCRE2 adds ` at "…"`) are not translated.
  assert.equal(validateRouteRegex('/a)'), "invalid regex: '/a)' (PCRE returned: Unmatched ')')");
});
