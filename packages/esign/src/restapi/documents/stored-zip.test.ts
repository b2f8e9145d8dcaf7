import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { safeEntryName, uniqueNames } from './archive-entries.ts';
import { storedZip } from './stored-zip.ts';

const run = promisify(execFile);

test('a stored zip is read back whole by the real unzip: names, bytes, CRCs and the date', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'stored-zip-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const a = new Uint8Array(70_000).map((_, i) => (i * 7) & 0xff);
  const b = new TextEncoder().encode('%PDF-1.7\nsecond\n');
  const zip = storedZip([{ name: 'Order acknowledgement.pdf', bytes: a }, { name: 'Summary.pdf', bytes: b }, { name: 'empty.pdf', bytes: new Uint8Array() }], new Date('2026-11-26T10:20:30Z'));
  writeFileSync(join(dir, 'a.zip'), zip);
  // -t checks every entry's CRC-32; -Z -T lists names with their dates.
  const tested = await run('unzip', ['-t', join(dir, 'a.zip')]);
  assert.match(tested.stdout, /No errors detected/);
  const listing = await run('zipinfo', ['-T', join(dir, 'a.zip')]);
  assert.match(listing.stdout, /20261126\.102030 Order acknowledgement\.pdf/);
  await run('unzip', ['-q', join(dir, 'a.zip'), '-d', join(dir, 'out')]);
  assert.deepEqual(readdirSync(join(dir, 'out')).sort(), ['Order acknowledgement.pdf', 'Summary.pdf', 'empty.pdf']);
  assert.deepEqual(new Uint8Array(readFileSync(join(dir, 'out', 'Order acknowledgement.pdf'))), a);
  assert.deepEqual(new Uint8Array(readFileSync(join(dir, 'out', 'Summary.pdf'))), b);
});

test('archive entry names cannot name a folder, climb out of one, hide, or collide', () => {
  assert.equal(safeEntryName('../../etc/passwd'), 'etc_passwd.pdf');
  assert.equal(safeEntryName('..\\..\\boot.ini'), 'boot.pdf');
  assert.equal(safeEntryName('/abs/path.docx'), 'abs_path.pdf');
  assert.equal(safeEntryName('.hidden'), 'hidden.pdf');
  assert.equal(safeEntryName('..'), 'document.pdf');
  assert.equal(safeEntryName('Vertrag für Müller\u0000.html'), 'Vertrag f_r M_ller_.pdf');
  assert.equal(safeEntryName('x'.repeat(500)).length, 104);
  assert.deepEqual(uniqueNames(['a.pdf', 'A.pdf', 'a.pdf', 'b.pdf']), ['a.pdf', 'A (2).pdf', 'a (3).pdf', 'b.pdf']);
  for (const name of ['../../x', 'a/b', 'c\\d', '\u202e/evil']) assert.doesNotMatch(safeEntryName(name), /[/\\]|^\./);
});
