// What the gateway benchmarks share: free ports, the processes they start (each in its own
// process group, output to a log file, stopped by group) and the CPU those groups use.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { openSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** A port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** utime+stime (clock ticks, 100 per second here) of every process in `pgid`'s group. */
export function groupCpuTicks(pgid: number): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== pgid) continue;
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // exited meanwhile
    }
  }
  return ticks;
}

/**
 * The processes one bench run starts: each leads its own process group (a gateway's workers,
 * nginx's workers go with it) and writes to `dir/<name>.log`. Stopped by group: SIGTERM, then
 * SIGKILL after 8 s.
 */
export class BenchProcesses {
  readonly #running: ChildProcess[] = [];
  readonly #dir: string;
  readonly #cwd: string;

  constructor(dir: string, cwd: string) {
    this.#dir = dir;
    this.#cwd = cwd;
  }

  launch(name: string, command: string, args: string[], env: Record<string, string> = {}, cwd = this.#cwd): ChildProcess {
    const log = openSync(join(this.#dir, `${name}.log`), 'a');
    const child = spawn(command, args, { cwd, detached: true, stdio: ['ignore', log, log], env: { ...process.env, ...env } });
    this.#running.push(child);
    return child;
  }

  async stop(child: ChildProcess): Promise<void> {
    const i = this.#running.indexOf(child);
    if (i !== -1) this.#running.splice(i, 1);
    const pid = child.pid;
    if (pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 8000);
    await exited;
    clearTimeout(timer);
  }

  /** Stops everything still running, newest first. */
  async stopAll(): Promise<void> {
    for (const child of [...this.#running].reverse()) await this.stop(child);
  }
}

/**
 * Requests one wrk run (one thread, `connections` keep-alive connections) completed against
 * 127.0.0.1:`port` in `seconds`, each request carrying `headers` ("Name: value"). Any non-2xx
 * answer fails the run: a bench measures served requests, not refusals. `cpu`: wrk runs on that
 * CPU only (taskset).
 */
export function wrkCount(port: number, seconds: number, connections: number, headers: readonly string[] = [], cpu?: number): number {
  const url = `http://127.0.0.1:${port}/`;
  const args = ['-k', '5', String(seconds + 30), ...(cpu === undefined ? [] : ['taskset', '-c', String(cpu)]), 'wrk', '-t1', `-c${connections}`, `-d${seconds}s`, ...headers.flatMap((h) => ['-H', h]), url];
  const out = spawnSync('timeout', args, { encoding: 'utf8' }).stdout;
  if (/Non-2xx/.test(out)) throw new Error(`non-2xx responses on ${url}:\n${out}`);
  const done = /(\d+) requests in/.exec(out)?.[1];
  if (done === undefined) throw new Error(`no wrk result for ${url}:\n${out}`);
  return Number(done);
}

/** The median of a non-empty list (the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}
