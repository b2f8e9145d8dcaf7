import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the helpers are built (git-ignored): once per source and node ABI. */
export const NATIVE_BUILD_DIR = fileURLToPath(new URL('../../native/build/', import.meta.url));

/** One small N-API helper: its C source, and how errors name what needs it. */
export type NativeAddon = {
  /** packages/gateway/native/<name>.c, and the built file's prefix. */
  readonly name: string;
  /** What needs it, as errors say it: "the reuseport flag". */
  readonly purpose: string;
  /** What it is, as errors say it: "socket helper". */
  readonly what: string;
};

function sourceOf(addon: NativeAddon): string {
  return fileURLToPath(new URL(`../../native/${addon.name}.c`, import.meta.url));
}

function addonPath(addon: NativeAddon, buildDir: string): string {
  const hash = createHash('sha256').update(readFileSync(sourceOf(addon))).update(`${process.versions.modules}/${process.arch}`).digest('hex').slice(0, 16);
  return join(buildDir, `${addon.name}-${hash}.node`);
}

/**
 * The helper's path, built first if needed with the C compiler and node's own headers (the
 * Debian nodejs package ships them). The cli builds it before any worker starts, so workers
 * only load it; a failure (no compiler, no headers) is the start's error, naming both.
 */
export function buildNativeAddon(addon: NativeAddon, buildDir = NATIVE_BUILD_DIR, cc = process.env.CC ?? 'cc'): string {
  const out = addonPath(addon, buildDir);
  if (existsSync(out)) return out;
  const include = join(dirname(dirname(process.execPath)), 'include', 'node');
  if (!existsSync(join(include, 'node_api.h'))) {
    throw new Error(`${addon.purpose} needs node's C headers, not found in ${include} (Debian: the nodejs package ships them)`);
  }
  // Written aside then renamed: a process loading it never sees half a file.
  const tmp = `${out}.${process.pid}.tmp`;
  try {
    mkdirSync(buildDir, { recursive: true });
    accessSync(buildDir, constants.W_OK);
  } catch (err) {
    throw new Error(`${addon.purpose} builds its ${addon.what} in ${buildDir}, which cannot be created or written (${(err as Error).message})`);
  }
  const r = spawnSync(cc, ['-O2', '-shared', '-fPIC', `-I${include}`, '-o', tmp, sourceOf(addon)], { encoding: 'utf8' });
  if (r.error !== undefined || r.status !== 0) {
    rmSync(tmp, { force: true });
    // No compiler at all, or one that ran and failed (a system without what the source needs).
    if (r.error !== undefined) throw new Error(`${addon.purpose} needs a C compiler to build its ${addon.what} (${cc}: ${r.error.message})`);
    throw new Error(`${addon.purpose} could not build its ${addon.what} (${cc}: ${r.stderr.trim()})`);
  }
  renameSync(tmp, out);
  return out;
}
