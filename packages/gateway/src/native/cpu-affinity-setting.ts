/**
 * nginx's worker_cpu_affinity, which Kong takes as `nginx_main_worker_cpu_affinity`: `auto`
 * binds worker N to the Nth CPU the gateway may use (in turn, when there are more workers than
 * CPUs), `auto <mask>` to the Nth of the mask's; masks bind worker N to the Nth mask (the last
 * one for the workers past them). A mask is binary, its rightmost digit CPU 0.
 */
export type CpuAffinity =
  | { readonly kind: 'auto'; readonly within?: readonly number[] }
  | { readonly kind: 'masks'; readonly masks: readonly (readonly number[])[] };

/** How the primary tells a worker its CPUs ("0" or "2,3"). */
export const WORKER_CPUS_ENV = 'SIGNET_WORKER_CPUS';

/** A binary mask's CPUs (undefined: not a mask); a mask of zeros names none, which is refused. */
function parseMask(mask: string): number[] | undefined {
  if (!/^[01]{1,1024}$/.test(mask)) return undefined;
  const cpus: number[] = [];
  for (let i = 0; i < mask.length; i++) if (mask[mask.length - 1 - i] === '1') cpus.push(i);
  // nginx starts with one and leaves its worker unbound (sched_setaffinity fails): refused here.
  if (cpus.length === 0) throw new Error(`'${mask}' names no CPU (a mask's rightmost digit is CPU 0)`);
  return cpus;
}

/** The setting's value parsed, or an Error saying what nginx takes. */
export function parseCpuAffinity(value: string): CpuAffinity {
  const words = value.trim().split(/\s+/).filter((w) => w !== '');
  const expected = `expected "auto", "auto <mask>" or a binary CPU mask per worker (nginx's worker_cpu_affinity), got '${value}'`;
  if (words[0] === 'auto') {
    if (words.length === 1) return { kind: 'auto' };
    const within = words.length === 2 ? parseMask(words[1]!) : undefined;
    if (within === undefined) throw new Error(expected);
    return { kind: 'auto', within };
  }
  const masks = words.map(parseMask);
  if (masks.length === 0 || masks.some((m) => m === undefined)) throw new Error(expected);
  return { kind: 'masks', masks: masks as number[][] };
}

/**
 * The CPUs of worker `slot` (0-based), given the CPUs the gateway may run on: empty when the
 * setting names none of them (start refuses it).
 */
export function cpusForWorker(affinity: CpuAffinity, slot: number, allowed: readonly number[]): number[] {
  if (affinity.kind === 'auto') {
    const within = affinity.within;
    const pool = within === undefined ? allowed : allowed.filter((cpu) => within.includes(cpu));
    return pool.length === 0 ? [] : [pool[slot % pool.length]!];
  }
  const mask = affinity.masks[Math.min(slot, affinity.masks.length - 1)]!;
  return mask.filter((cpu) => allowed.includes(cpu));
}

function maskOf(cpus: readonly number[], width: number): string {
  return Array.from({ length: width }, (_, i) => (cpus.includes(width - 1 - i) ? '1' : '0')).join('');
}

/** The setting as nginx writes it, masks as wide as the widest (the admin API's configuration shows it so). */
export function formatCpuAffinity(affinity: CpuAffinity): string {
  if (affinity.kind === 'auto') return affinity.within === undefined ? 'auto' : `auto ${maskOf(affinity.within, Math.max(...affinity.within) + 1)}`;
  const width = Math.max(...affinity.masks.flat()) + 1;
  return affinity.masks.map((m) => maskOf(m, width)).join(' ');
}
