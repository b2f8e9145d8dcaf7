import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { STOP_WITH_PARENT_ENV } from '@signet/kit';
import type { LogFormatter } from './create-log-formatter.ts';

/** One long-running part of the system, started as a child process. */
export type ProcessSpec = {
  name: string;
  command: string;
  args: readonly string[];
  env?: Readonly<Record<string, string>>;
  cwd?: string;
};

export type SupervisorOptions = {
  /** Where prefixed log lines go (stdout in production; a collector in tests). */
  log: (line: string) => void;
  /** Time a child gets between SIGTERM and SIGKILL. */
  stopGraceMs?: number;
  /** How each part's lines are shown (default: as they are, behind the part's name). */
  formatter?: (part: string) => LogFormatter;
};

const WIDTH = 8;
const rawLines = (part: string): LogFormatter => (line) => `${part.padEnd(WIDTH)} | ${line}`;

type Running = { spec: ProcessSpec; child: ChildProcess; exited: Promise<void> };

/**
 * Starts the parts, streams their output with a name prefix, and stops all of them when asked
 * or as soon as one dies on its own: a half-running system is worse than a stopped one.
 */
export class Supervisor {
  #running: Running[] = [];
  #stopping: Promise<void> | undefined;
  #failure: string | undefined;
  readonly #log: (line: string) => void;
  readonly #graceMs: number;
  readonly #formatter: (part: string) => LogFormatter;
  readonly #done: Promise<void>;
  #resolveDone!: () => void;

  constructor(options: SupervisorOptions) {
    this.#log = options.log;
    this.#graceMs = options.stopGraceMs ?? 10_000;
    this.#formatter = options.formatter ?? rawLines;
    this.#done = new Promise((resolve) => (this.#resolveDone = resolve));
  }

  /** Starts one part. Its unexpected exit stops the whole system. */
  start(spec: ProcessSpec): void {
    // Each part leads its own process group, so a terminal's Ctrl-C (SIGINT to the foreground
    // group) reaches only the supervisor, which then stops the parts in order. Each part holds
    // the read end of a stdin pipe this process never writes to: if the supervisor dies, even by
    // SIGKILL, the part reads end-of-file and stops itself (kit stopWithParent), so nothing is
    // left running in a group nobody signals.
    const child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env, [STOP_WITH_PARENT_ENV]: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    // One formatter for both streams: fastify's request pair may be split across them.
    const format = this.#formatter(spec.name);
    for (const stream of [child.stdout, child.stderr]) {
      if (stream) {
        createInterface({ input: stream }).on('line', (line) => {
          const shown = format(line);
          if (shown !== undefined) this.#log(shown);
        });
      }
    }
    const exited = new Promise<void>((resolve) => {
      // 'close', not 'exit': it comes after the child's pipes are drained, so its last lines are logged first.
      child.once('close', (code, signal) => {
        if (this.#stopping === undefined) {
          this.#failure = `${spec.name} exited unexpectedly (${signal ?? `code ${code}`})`;
          this.#log(`system   | ${this.#failure}; stopping the rest`);
          void this.stop();
        }
        resolve();
      });
      child.once('error', (err) => {
        if (this.#stopping === undefined) {
          this.#failure = `${spec.name} could not start: ${err.message}`;
          this.#log(`system   | ${this.#failure}`);
          void this.stop();
        }
        resolve();
      });
    });
    this.#running.push({ spec, child, exited });
  }

  /** Stops every part (SIGTERM, then SIGKILL after the grace time); idempotent. */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      // Reverse start order, one at a time: the entry point (gateway) drains and exits before the
      // esign instances behind it are told to stop, so no request reaches a dying part
      // (docs/operations.md §3). Signalling all at once let esign close while the gateway still
      // forwarded its in-flight requests.
      for (const r of [...this.#running].reverse()) await this.#stopOne(r);
      this.#resolveDone();
    })();
    return this.#stopping;
  }

  /** SIGTERM, then SIGKILL if the part is still running after the grace time; resolves on exit. */
  async #stopOne(r: Running): Promise<void> {
    if (r.child.exitCode !== null || r.child.signalCode !== null) return r.exited;
    r.child.kill('SIGTERM');
    const timer = setTimeout(() => {
      if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
    }, this.#graceMs);
    await r.exited;
    clearTimeout(timer);
  }

  /**
   * SIGKILL to every part's process group (the part and whatever it started: LibreOffice,
   * Chromium, gateway workers), for an impatient second Ctrl-C. Does not wait.
   */
  kill(): void {
    for (const r of this.#running) {
      if (r.child.pid === undefined || r.child.exitCode !== null || r.child.signalCode !== null) continue;
      try {
        process.kill(-r.child.pid, 'SIGKILL');
      } catch {
        // ESRCH: the group is already gone.
      }
    }
  }

  /** Resolves when everything has stopped; carries the reason if a part died on its own. */
  async done(): Promise<{ failure: string | undefined }> {
    await this.#done;
    return { failure: this.#failure };
  }

  /** Why the system stopped on its own (a part died), if it did. */
  get failure(): string | undefined {
    return this.#failure;
  }

  /** Names of the parts started so far. */
  get names(): string[] {
    return this.#running.map((r) => r.spec.name);
  }
}
