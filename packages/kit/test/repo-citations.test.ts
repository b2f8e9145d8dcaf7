// Comments and docs cite what a reader of this repository can open: the repo's own docs/*.md,
// or the upstream source a fact comes from (a Kong file path, a docusign-esign SDK file,
// DocuSign's page by name). Notes kept outside the repository (the compat/ research notes, the
// spec and the target architecture in a sibling shared/ directory) do not ship with it, so a
// citation of them is a dead link. This test fails when any tracked file names one of them.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SELF = relative(ROOT, fileURLToPath(import.meta.url));

// Written in pieces so that this file does not match itself.
const NOTES = ['kong', 'esign-wire', 'dependency-trials', 'proxy-baseline'].map((n) => `${n}\\.md`).join('|');
const FORBIDDEN: readonly RegExp[] = [
  new RegExp(`(^|[^\\w-])(${NOTES})\\b`),
  new RegExp(`\\.\\./${'shared'}\\b`),
  new RegExp(`/work/${'shared'}\\b`),
  // The shared spec and architecture cited by section number (docs/ARCHITECTURE.md has none).
  new RegExp(`\\bspec ${'§'}\\d`),
  new RegExp(`ARCHITECTURE\\.md ${'§'}\\d`),
];

const BINARY = /\.(png|jpe?g|gif|ico|pdf|p12|pfx|der|woff2?|otf|ttf|docx|doc|odt|zip|gz|wasm)$/i;

function trackedTextFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return out.split('\0').filter((f) => f !== '' && f !== SELF && f !== 'package-lock.json' && !BINARY.test(f));
}

/** Every `file:line: text` of `files` that matches a forbidden citation. */
export function forbiddenCitations(files: readonly string[], read: (file: string) => string): string[] {
  const hits: string[] = [];
  for (const file of files) {
    read(file).split('\n').forEach((line, i) => {
      if (FORBIDDEN.some((re) => re.test(line))) hits.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  return hits;
}

test('the patterns catch each way the notes were cited, and spare what is ours', () => {
  const lines = {
    'a.ts': '// (kong.md §4.6)',
    'b.ts': ' * (compat/esign-wire.md §0.5)',
    'c.md': '`/work/shared/compat/kong.md` §3.7',
    'd.md': 'see ../shared/ARCHITECTURE.md',
    'e.ts': '(dependency-trials.md §1: int8)',
    'f.ts': '// Method follows compat/proxy-baseline.md',
    'g.ts': '// (spec §3: only active probes)',
    'h.md': 'is fixed by ARCHITECTURE.md §4.',
    'ok1.ts': "import { run } from '../test/compat/sdk-step.mjs'; // docs/gateway-health.md",
    'ok2.md': 'Kong\'s `kong/runloop/balancer/healthcheckers.lua`; docusign-esign src/ApiClient.js',
    'ok3.ts': '// RFC 9113 §3.4; docs/ARCHITECTURE.md, "Rules of the house"',
  };
  const hits = forbiddenCitations(Object.keys(lines), (f) => lines[f as keyof typeof lines]);
  assert.deepEqual(hits.map((h) => h.split(':')[0]), ['a.ts', 'b.ts', 'c.md', 'd.md', 'e.ts', 'f.ts', 'g.ts', 'h.md']);
});

test('no tracked file cites notes that live outside the repository', () => {
  const files = trackedTextFiles();
  assert.ok(files.length > 100, `git ls-files found only ${files.length} files`);
  const hits = forbiddenCitations(files, (f) => readFileSync(join(ROOT, f), 'utf8'));
  assert.deepEqual(hits, [], `cite docs/*.md or the upstream source instead:\n${hits.join('\n')}`);
});
