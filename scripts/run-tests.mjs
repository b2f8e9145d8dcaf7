#!/usr/bin/env node
// Runs the whole suite with node's own test runner through tsx, so its summary lines
// (`# tests N`, `# pass N`, `# fail N`) close the output. Node 20's --test neither expands
// globs nor discovers .ts files, so the file list is built here.
// Usage: npm test [-- <path fragment> ...]   e.g. npm test -- packages/gateway
import { readdirSync, statSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join, relative, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
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

const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const args = ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`,
  '--test-timeout=300000', ...files];
const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
