import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getSystemErrorName } from 'node:util';

// Kong's `reuseport` listen flag needs SO_REUSEPORT, which node 20's net cannot set: a small
// N-API helper (native/reuse-port.c) does, built here with the C compiler and node's own
// headers (the Debian nodejs package ships them), once per source and node ABI.
const SOURCE = fileURLToPath(new URL('../../native/reuse-port.c', import.meta.url));
const BUILD_DIR = fileURLToPath(new URL('../../native/build/', import.meta.url));

type Addon = { bind(ip: string, port: number): number };
let addon: Addon | undefined;

function addonPath(buildDir: string): string {
  const hash = createHash('sha256').update(readFileSync(SOURCE)).update(`${process.versions.modules}/${process.arch}`).digest('hex').slice(0, 16);
  return join(buildDir, `reuse-port-${hash}.node`);
}

/**
 * The helper's path, built first if needed. The cli calls it before any worker starts, so
 * workers only load it; a failure (no compiler, no headers) is the start's error, naming both.
 */
export function buildReusePortAddon(buildDir = BUILD_DIR, cc = process.env.CC ?? 'cc'): string {
  const out = addonPath(buildDir);
  if (existsSync(out)) return out;
  const include = join(dirname(dirname(process.execPath)), 'include', 'node');
  if (!existsSync(join(include, 'node_api.h'))) {
    throw new Error(`the reuseport flag needs node's C headers, not found in ${include} (Debian: the nodejs package ships them)`);
  }
  // Written aside then renamed: a process loading it never sees half a file.
  const tmp = `${out}.${process.pid}.tmp`;
  try {
    mkdirSync(buildDir, { recursive: true });
    accessSync(buildDir, constants.W_OK);
  } catch (err) {
    throw new Error(`the reuseport flag builds its socket helper in ${buildDir}, which cannot be created or written (${(err as Error).message})`);
  }
  const r = spawnSync(cc, ['-O2', '-shared', '-fPIC', `-I${include}`, '-o', tmp, SOURCE], { encoding: 'utf8' });
  if (r.error !== undefined || r.status !== 0) {
    rmSync(tmp, { force: true });
    throw new Error(`the reuseport flag needs a C compiler to build its socket helper (${cc}: ${r.error?.message ?? r.stderr.trim()})`);
  }
  renameSync(tmp, out);
  return out;
}

/** A bound, non-blocking TCP socket on ip:port with SO_REUSEPORT set; node listens on its descriptor. */
export function bindReusePort(ip: string, port: number): number {
  addon ??= createRequire(import.meta.url)(buildReusePortAddon()) as Addon;
  const fd = addon.bind(ip, port);
  if (fd < 0) {
    const code = getSystemErrorName(fd);
    throw Object.assign(new Error(`listen ${code}: ${ip}:${port} (reuseport)`), { code, syscall: 'listen', address: ip, port });
  }
  return fd;
}
