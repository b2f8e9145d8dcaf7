#!/usr/bin/env node
// Runs the whole suite with node's own test runner (TypeScript through scripts/test-loader.mjs,
// which says why it is not tsx here), so its summary lines
// (`# tests N`, `# pass N`, `# fail N`) close the output. Node 20's --test neither expands
// globs nor discovers .ts files, so the file list is built here.
// Usage: npm test [-- <path fragment> ...]   e.g. npm test -- packages/gateway
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join, relative, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const LAST = 'var/test-durations.json';
const RUN = 'var/test-durations.run.json';
const SKIP = new Set(['node_modules', 'var', '.git', 'fixtures']);

function findTests(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) findTests(p, out);
    else if (name.endsWith('.test.ts')) out.push(relative(root, p));
  }
  return out;
}

const filters = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const files = findTests(join(root, 'packages'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error(`run-tests: no test files match ${filters.join(' ') || '(all)'}`);
  process.exit(1);
}

// Slowest files first (longest-processing-time order): with two lanes, a long file started last
// would otherwise run alone at the end. Durations come from this machine's last runs
// (var/test-durations.json, written by scripts/durations-reporter.mjs), else from the committed
// snapshot; a file neither knows (a new one) goes first, since it may be slow.
const known = { ...readJson(join(root, 'scripts/test-durations.json')), ...readJson(join(root, LAST)) };
files.sort((a, b) => (known[b] ?? Infinity) - (known[a] ?? Infinity) || a.localeCompare(b));

const concurrency = process.env.TEST_CONCURRENCY ?? '2';
mkdirSync(join(root, 'var'), { recursive: true });
const loader = pathToFileURL(join(root, 'scripts/test-loader.mjs')).href;
const args = ['--import', loader, '--test', `--test-concurrency=${concurrency}`,
  '--test-timeout=600000',
  `--test-reporter=${process.stdout.isTTY ? 'spec' : 'tap'}`, '--test-reporter-destination=stdout',
  '--test-reporter=./scripts/durations-reporter.mjs', `--test-reporter-destination=${RUN}`,
  ...files];
const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => {
  // A filtered run only knows its own files: merge into what earlier runs measured.
  const measured = readJson(join(root, RUN));
  if (Object.keys(measured).length > 0) {
    writeFileSync(join(root, LAST), `${JSON.stringify({ ...readJson(join(root, LAST)), ...measured }, null, 1)}\n`);
  }
  process.exit(code ?? (signal ? 1 : 0));
});

function readJson(path) {
  if (!existsSync(path)) return {};
  try { return JSON.parse(readFileSync(path, 'utf8')); } catch { return {}; }
}
