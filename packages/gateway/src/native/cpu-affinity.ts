import { createRequire } from 'node:module';
import { getSystemErrorName } from 'node:util';
import { buildNativeAddon, NATIVE_BUILD_DIR, type NativeAddon } from './build-native-addon.ts';

// nginx_main_worker_cpu_affinity (cpu-affinity-setting.ts) needs sched_setaffinity, which node
// cannot call: a small N-API helper (native/cpu-affinity.c) does.
const CPU_AFFINITY: NativeAddon = { name: 'cpu-affinity', purpose: 'binding workers to CPUs', what: 'CPU affinity helper' };

type Addon = { allowed(): number[] | number; bind(cpus: readonly number[]): number };
let addon: Addon | undefined;

function load(): Addon {
  addon ??= createRequire(import.meta.url)(buildNativeAddon(CPU_AFFINITY)) as Addon;
  return addon;
}

/** The helper's path, built first if needed (the cli builds it before any worker starts). */
export function buildCpuAffinityAddon(buildDir = NATIVE_BUILD_DIR, cc = process.env.CC ?? 'cc'): string {
  return buildNativeAddon(CPU_AFFINITY, buildDir, cc);
}

/** The CPUs this process may run on (its scheduler affinity). */
export function allowedCpus(): number[] {
  const r = load().allowed();
  if (typeof r === 'number') throw new Error(`sched_getaffinity: ${getSystemErrorName(r)}`);
  return r;
}

/** Binds every thread of this process to `cpus`; threads started later inherit it. */
export function bindToCpus(cpus: readonly number[]): void {
  const r = load().bind(cpus);
  if (r < 0) throw new Error(`sched_setaffinity(${cpus.join(',')}): ${getSystemErrorName(r)}`);
}
