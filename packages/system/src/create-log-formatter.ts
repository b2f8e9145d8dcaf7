/** Turns one output line of a part into the line a human reads, or undefined to drop it. */
export type LogFormatter = (line: string) => string | undefined;

export type LogFormatterOptions = {
  /** Show the /health probes too (the gateway's active checker sends one every 1-2 s per instance). */
  showHealthProbes?: boolean;
};

// pino's numeric levels (pino/lib/constants.js).
const LEVELS: Readonly<Record<number, string>> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
// Fields every pino line carries, or that the layout already shows.
const HIDDEN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'v']);
const PREFIX_WIDTH = 8;
const INFO = 30;

type PinoLine = Record<string, unknown> & { level: number; time: number; msg?: unknown };
type Pending = { method: string; url: string };

function parsePino(line: string): PinoLine | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null) return undefined;
    const record = value as Record<string, unknown>;
    return typeof record.level === 'number' && typeof record.time === 'number' ? (record as PinoLine) : undefined;
  } catch {
    return undefined;
  }
}

/** `key=value` pairs for the remaining fields; nested objects as dotted keys, values with spaces quoted. */
function fields(record: Record<string, unknown>, prefix = ''): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (prefix === '' && HIDDEN.has(key)) continue;
    if (value === undefined) continue;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      out.push(...fields(value as Record<string, unknown>, `${prefix}${key}.`));
      continue;
    }
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    out.push(`${prefix}${key}=${/[\s"=]/.test(text) || text === '' ? JSON.stringify(text) : text}`);
  }
  return out;
}

const isHealthProbe = (url: string) => url === '/health' || url.startsWith('/health?');

/**
 * A formatter for one part: pino JSON lines become `part | HH:MM:SS.mmm LEVEL msg key=value`
 * (time in UTC), anything else passes through behind the prefix. Fastify's request pair is
 * folded into one line at completion (`GET /path 200 1.2ms`), and successful /health probes
 * are dropped: with active checks they are most of the output and say nothing.
 */
export function createLogFormatter(part: string, options: LogFormatterOptions = {}): LogFormatter {
  const prefix = `${part.padEnd(PREFIX_WIDTH)} |`;
  // reqId → request line, between fastify's "incoming request" and "request completed".
  const pending = new Map<string, Pending>();
  return (line) => {
    const record = parsePino(line);
    if (record === undefined) return `${prefix} ${line}`;
    const { req, res, reqId, err, responseTime, ...rest } = record;
    const id = typeof reqId === 'string' || typeof reqId === 'number' ? String(reqId) : undefined;
    let text = typeof record.msg === 'string' ? record.msg : '';
    let extra: Record<string, unknown> = rest;
    if (id !== undefined && req !== null && typeof req === 'object' && record.msg === 'incoming request') {
      const { method, url } = req as { method?: unknown; url?: unknown };
      pending.set(id, { method: String(method), url: String(url) });
      // The completion line says everything; at debug and below the arrival is shown too.
      if (record.level >= INFO) return undefined;
    }
    if (id !== undefined && res !== null && typeof res === 'object' && record.msg === 'request completed') {
      const request = pending.get(id);
      pending.delete(id);
      const status = Number((res as { statusCode?: unknown }).statusCode);
      if (request && isHealthProbe(request.url) && status < 400 && !options.showHealthProbes) return undefined;
      const ms = typeof responseTime === 'number' ? ` ${responseTime.toFixed(1)}ms` : '';
      text = `${request ? `${request.method} ${request.url} ` : ''}${status}${ms}`;
      extra = { ...rest, reqId: id };
    } else {
      extra = { ...rest, ...(id !== undefined ? { reqId: id } : {}), ...(req !== undefined ? { req } : {}), ...(res !== undefined ? { res } : {}) };
    }
    const time = new Date(record.time).toISOString().slice(11, 23);
    const level = LEVELS[record.level] ?? String(record.level);
    let out = `${prefix} ${time} ${level} ${[text, ...fields(extra)].filter((s) => s !== '').join(' ')}`;
    // pino serialises errors as {type, message, stack}: the stack goes on its own lines.
    if (err !== null && typeof err === 'object') {
      const { message, stack } = err as { message?: unknown; stack?: unknown };
      if (typeof stack === 'string') out += `\n${stack.split('\n').map((l) => `${prefix}     ${l}`).join('\n')}`;
      else if (message !== undefined) out += ` err=${JSON.stringify(message)}`;
    } else if (err !== undefined) {
      out += ` err=${JSON.stringify(err)}`;
    }
    return out;
  };
}
