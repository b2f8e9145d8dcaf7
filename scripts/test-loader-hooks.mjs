// The load hook of scripts/test-loader.mjs: a `.ts` file becomes ES module JavaScript by esbuild,
// with the options tsx uses (this Node's target, the project's tsconfig, names kept, an inline
// source map so stacks point at the TypeScript), cached under var/ts-cache by a hash of the
// source and those options.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync, version } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = join(root, 'var', 'ts-cache');
mkdirSync(cacheDir, { recursive: true });
const tsconfigRaw = readFileSync(join(root, 'tsconfig.json'), 'utf8');
const options = { loader: 'ts', format: 'esm', target: `node${process.versions.node}`, sourcemap: 'inline', keepNames: true, tsconfigRaw };
const optionsKey = `${version}\0${JSON.stringify(options)}`;

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const path = fileURLToPath(url);
  const source = readFileSync(path, 'utf8');
  const file = join(cacheDir, `${createHash('sha1').update(optionsKey).update('\0').update(path).update('\0').update(source).digest('hex')}.js`);
  let code;
  try {
    code = readFileSync(file, 'utf8');
  } catch {
    code = transformSync(source, { ...options, sourcefile: path }).code;
    // Two test processes may compile the same file at once: each writes its own name, then renames.
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, code);
    renameSync(temp, file);
  }
  return { format: 'module', source: code, shortCircuit: true };
}
