// A small parser of the Prometheus text exposition format 0.0.4
// (prometheus.io/docs/instrumenting/exposition_formats): enough to check what /metrics serves.

export type Sample = { readonly name: string; readonly labels: Readonly<Record<string, string>>; readonly value: number };
export type Parsed = { readonly types: ReadonlyMap<string, string>; readonly samples: readonly Sample[] };

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+-?\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,|$)/y;

function unescape(v: string): string {
  return v.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
}

function parseValue(v: string): number {
  if (v === '+Inf') return Infinity;
  if (v === '-Inf') return -Infinity;
  const n = Number(v);
  if (v !== 'NaN' && Number.isNaN(n)) throw new Error(`bad sample value ${v}`);
  return n;
}

/** Parses exposition text; throws on any line that is not a comment, a TYPE/HELP or a sample. */
export function parsePrometheusText(text: string): Parsed {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const m = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
      if (m) types.set(m[1]!, m[2]!);
      else if (!/^# HELP \S+ /.test(line)) throw new Error(`bad comment line: ${line}`);
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`bad sample line: ${line}`);
    const labels: Record<string, string> = {};
    const body = m[3] ?? '';
    LABEL.lastIndex = 0;
    while (LABEL.lastIndex < body.length) {
      const l = LABEL.exec(body);
      if (!l) throw new Error(`bad labels: ${line}`);
      labels[l[1]!] = unescape(l[2]!);
    }
    samples.push({ name: m[1]!, labels, value: parseValue(m[4]!) });
  }
  return { types, samples };
}

/** The samples named `name` whose labels include `match`. */
export function find(p: Parsed, name: string, match: Readonly<Record<string, string>> = {}): Sample[] {
  return p.samples.filter((s) => s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v));
}
