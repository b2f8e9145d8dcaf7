// Run counts, seeds, text mutators and a slowest-input record for the fuzz tests.
import fc from 'fast-check';

/** FUZZ_RUNS overrides the default count (the full ≥100k run is done by hand, see docs/reliability.md). */
export function fuzzRuns(defaultRuns: number): number {
  const raw = process.env.FUZZ_RUNS;
  if (raw === undefined || raw === '') return defaultRuns;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`FUZZ_RUNS must be a positive integer, got "${raw}"`);
  return n;
}

/** FUZZ_SEED replays a failing run; otherwise fast-check picks (and prints on failure) a seed. */
export function fuzzSeed(): number | undefined {
  const raw = process.env.FUZZ_SEED;
  return raw === undefined || raw === '' ? undefined : Number(raw);
}

type Edit = { at: number; kind: 'delete' | 'insert' | 'replace' | 'duplicate' | 'truncate'; text: string; length: number };

const EDIT: fc.Arbitrary<Edit> = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('delete', 'insert', 'replace', 'duplicate', 'truncate'),
  // YAML's structural characters are the interesting ones to splice in.
  text: fc.oneof(fc.constantFrom(':', '- ', '\n', '  ', '"', "'", '[', ']', '{', '}', '&a', '*a', '<<: *a', '!!binary', '|', '>', '#', '---', '\t', ',', '?', '%YAML 1.2\n'), fc.string({ maxLength: 12, unit: 'binary' })),
  length: fc.integer({ min: 1, max: 40 }),
});

/** Up to 8 edits (delete, insert, replace, duplicate a span, truncate) of a seed text. */
export function mutateText(seed: string): fc.Arbitrary<string> {
  return fc.array(EDIT, { minLength: 1, maxLength: 8 }).map((edits) => {
    let s = seed;
    for (const e of edits) {
      const at = s.length === 0 ? 0 : e.at % s.length;
      if (e.kind === 'delete') s = s.slice(0, at) + s.slice(at + e.length);
      else if (e.kind === 'insert') s = s.slice(0, at) + e.text + s.slice(at);
      else if (e.kind === 'replace') s = s.slice(0, at) + e.text + s.slice(at + e.text.length);
      else if (e.kind === 'duplicate') s = s.slice(0, at + e.length) + s.slice(at, at + e.length) + s.slice(at + e.length);
      else s = s.slice(0, at);
    }
    return s;
  });
}

/** CPU time this process has used, in ms (user + system). */
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * Times each input and keeps the slowest, so a test can bound it ("no hang") and report it.
 * The time is the process's CPU time, not the wall clock: on a machine busy with other work the
 * test is descheduled for long stretches (a 1.3 s "slowest input" was a wall-clock reading under
 * load), while a hang in the parser burns CPU either way.
 */
export function recordSlowest() {
  const state = {
    ms: 0,
    input: '',
    count: 0,
    totalMs: 0,
    time<T>(input: string, run: () => T): T {
      const start = cpuMs();
      try {
        return run();
      } finally {
        const ms = cpuMs() - start;
        state.count++;
        state.totalMs += ms;
        if (ms > state.ms) {
          state.ms = ms;
          state.input = input;
        }
      }
    },
    report(what: string, runs: number): void {
      // One diagnostic line for docs/reliability.md: node's runner shows it with the test.
      console.log(`fuzz ${what}: ${runs} runs, ${state.count} inputs, ${(state.totalMs / 1000).toFixed(1)} s of CPU in the parser, slowest ${state.ms.toFixed(1)} ms`);
    },
  };
  return state;
}
