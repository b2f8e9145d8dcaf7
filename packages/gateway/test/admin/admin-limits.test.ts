// POST /config bodies built to exhaust the admin process: deep nesting, alias amplification.
// Each is answered with an error, the running configuration kept, and the process still serving.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_NESTING } from '../../src/declarative/index.ts';
import { aliasBomb } from '../declarative/alias-bomb.fixture.ts';
import { KONG_YML, call, startAdmin, type AdminHarness } from './admin.fixture.ts';

async function admin(t: TestContext): Promise<AdminHarness> {
  const h = await startAdmin();
  t.after(() => h.close());
  return h;
}

const post = (h: AdminHarness, type: string, body: string): ReturnType<typeof call> =>
  call(h.base, '/config', { method: 'POST', headers: { 'content-type': type }, body });

test('POST /config: 200,000 unclosed `[` as YAML, twice: 400 with Kong\'s body both times, nothing applied', async (t) => {
  const h = await admin(t);
  const deep = '['.repeat(200_000) + ']'.repeat(199_999);
  for (let i = 0; i < 2; i++) {
    const r = await post(h, 'application/x-yaml', deep);
    assert.equal(r.status, 400);
    const body = r.body as { message: string; name: string };
    assert.equal(body.name, 'invalid declarative configuration');
    assert.match(body.message, new RegExp(`maximum nesting depth \\(${MAX_NESTING}\\) exceeded`));
  }
  assert.deepEqual([h.applied.length, h.errors], [0, []]);
  assert.equal((await post(h, 'application/x-yaml', KONG_YML)).status, 201);
});

test('POST /config: a `_format_version` JSON body nested 200,000 deep is a 400 "Cannot parse JSON body" (cjson\'s depth limit), not a logged 500', async (t) => {
  const h = await admin(t);
  const body = `{"_format_version": "3.0", "services": ${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
  const r = await post(h, 'application/json', body);
  assert.deepEqual([r.status, r.body, h.errors, h.applied.length], [400, { message: 'Cannot parse JSON body' }, [], 0]);
});

test('POST /config: aliases expanding past 10 MiB are a 400 with Kong\'s body; nothing applied, the admin API still answers', async (t) => {
  const h = await admin(t);
  const r = await post(h, 'application/x-yaml', aliasBomb(120, 999));
  assert.equal(r.status, 400);
  assert.match((r.body as { message: string }).message, /aliases expand the document past 10485760 characters/);
  assert.deepEqual([h.applied.length, h.errors], [0, []]);
  assert.equal((await call(h.base, '/status')).status, 200);
});

// The review's alias document got past validation and made JSON.stringify of the 201 body throw
// inside the answer's .then: an unhandled rejection that ended the process. Whatever body fails
// to serialise is now a logged 500.
test('an answer whose body cannot be serialised is a generic 500, reported once; the server keeps answering', async (t) => {
  const h = await startAdmin({
    extraRoutes: [(_method, path) => (path === '/unserialisable' ? { status: 200, body: { n: 1n } } : undefined)],
  });
  t.after(() => h.close());
  const r = await call(h.base, '/unserialisable');
  assert.deepEqual([r.status, r.body], [500, { message: 'An unexpected error occurred' }]);
  assert.deepEqual(h.errors.map((e) => (e as Error).name), ['TypeError']);
  assert.equal((await call(h.base, '/status')).status, 200);
});
