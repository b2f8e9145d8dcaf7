// The data directory holds every envelope (SQLite), the Connect secret key and the development
// seal: created 0700 with 0600 files, and tightened when an older version left them readable.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { loadOrCreateDevSeal } from '../../src/completion/dev-seal-identity.ts';
import { loadSecretKey } from '../../src/connect/load-secret-key.ts';
import { openStore } from '../../src/store/index.ts';
import { sqliteFileIn } from '../../src/store/database.ts';

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

function parent(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'signet-modes-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('a new data directory is 0700 and the database, its WAL and shared-memory files, the Connect key and the dev seal are 0600', async (t) => {
  const dataDir = join(parent(t), 'data');
  const store = await openStore({ sqliteFile: sqliteFileIn(dataDir) });
  t.after(() => store.close());
  // A write makes SQLite create the -wal and -shm files.
  await store.db.kysely.selectFrom('users').select('id').execute();
  loadSecretKey(undefined, dataDir);
  loadOrCreateDevSeal(dataDir);
  const files = ['esign.sqlite', 'esign.sqlite-wal', 'esign.sqlite-shm', 'connect-secret.key', 'seal-dev.json'];
  assert.equal(modeOf(dataDir), '700');
  assert.deepEqual(files.map((f) => `${f} ${modeOf(join(dataDir, f))}`), files.map((f) => `${f} 600`));
});

test('a data directory left world-readable by an older version is tightened at start, files included', async (t) => {
  const dataDir = join(parent(t), 'data');
  mkdirSync(dataDir, { mode: 0o755 });
  chmodSync(dataDir, 0o755);
  // The old files, as umask 022 made them.
  const first = await openStore({ sqliteFile: join(dataDir, 'esign.sqlite') });
  await first.close();
  for (const f of ['esign.sqlite']) chmodSync(join(dataDir, f), 0o644);
  writeFileSync(join(dataDir, 'esign.sqlite-wal'), '', { mode: 0o644 });
  chmodSync(join(dataDir, 'esign.sqlite-wal'), 0o644);
  const store = await openStore({ sqliteFile: sqliteFileIn(dataDir) });
  t.after(() => store.close());
  assert.equal(modeOf(dataDir), '700');
  assert.equal(modeOf(join(dataDir, 'esign.sqlite')), '600');
  assert.equal(modeOf(join(dataDir, 'esign.sqlite-wal')), '600');
});
