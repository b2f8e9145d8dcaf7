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
