import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { STOP_WITH_PARENT_ENV } from '@signet/kit';
import type { LogFormatter } from './create-log-formatter.ts';
import { afterCrash, DEFAULT_RESTART_POLICY, NO_CRASHES, type CrashRecord, type RestartPolicy } from './restart-policy.ts';
import { formatStatusLine, type PartStatus } from './format-status-line.ts';

/** One long-running part of the system, started as a child process. */
export type ProcessSpec = {
  name: string;
  command: string;
  args: readonly string[];
  env?: Readonly<Record<string, string>>;
  cwd?: string;
  /**
   * Started again (with backoff) when it exits on its own. A part without it is essential: its
   * death ends the whole system (the gateway: without it nothing is reachable).
   */
  restart?: boolean;
};

export type SupervisorOptions = {
  /** Where prefixed log lines go (stdout in production; a collector in tests). */
  log: (line: string) => void;
  /** Time a child gets between SIGTERM and SIGKILL. */
  stopGraceMs?: number;
  /** How each part's lines are shown (default: as they are, behind the part's name). */
  formatter?: (part: string) => LogFormatter;
  restartPolicy?: RestartPolicy;
  /** Told when a restartable part died on its own (npm start takes it out of the gateway's rotation). */
  onCrash?: (name: string) => void;
  now?: () => number;
};

const WIDTH = 8;
/** Lines of a part's own output kept to show when it crash-loops. */
const LAST_LINES = 12;
const rawLines = (part: string): LogFormatter => (line) => `${part.padEnd(WIDTH)} | ${line}`;

type Part = {
  spec: ProcessSpec;
  child: ChildProcess | undefined;
  /** Resolves when the current child has exited and its output is drained. */
  exited: Promise<void>;
  startedAt: number;
  crashes: CrashRecord;
  /** Restarts of any kind (crash or rolling). */
  restarts: number;
  /** The supervisor itself is stopping this child (rolling restart): its exit is not a crash. */
  expectedExit: boolean;
  restartTimer: NodeJS.Timeout | undefined;
  restartAt: number | undefined;
  lastLines: string[];
};

/**
 * Starts the parts and streams their output with a name prefix. A restartable part that dies is
 * started again with backoff while the rest keeps serving; an essential part's death, or stop(),
 * ends the system. Every change is logged with a one-line status of all parts.
 */
export class Supervisor {
  #parts: Part[] = [];
  #stopping: Promise<void> | undefined;
  #failure: string | undefined;
  /** Off until the system has come up once: a part that dies while starting is a setup error to report, not to retry. */
  #restarting = false;
  readonly #log: (line: string) => void;
  readonly #graceMs: number;
  readonly #formatter: (part: string) => LogFormatter;
  readonly #policy: RestartPolicy;
  readonly #onCrash: (name: string) => void;
  readonly #now: () => number;
  readonly #done: Promise<void>;
  #resolveDone!: () => void;

  constructor(options: SupervisorOptions) {
    this.#log = options.log;
    this.#graceMs = options.stopGraceMs ?? 10_000;
    this.#formatter = options.formatter ?? rawLines;
    this.#policy = options.restartPolicy ?? DEFAULT_RESTART_POLICY;
    this.#onCrash = options.onCrash ?? (() => {});
    this.#now = options.now ?? Date.now;
    this.#done = new Promise((resolve) => (this.#resolveDone = resolve));
  }

  /** Starts one part. */
  start(spec: ProcessSpec): void {
    const part: Part = { spec, child: undefined, exited: Promise.resolve(), startedAt: 0, crashes: NO_CRASHES, restarts: 0, expectedExit: false, restartTimer: undefined, restartAt: undefined, lastLines: [] };
    this.#parts.push(part);
    this.#spawn(part);
  }

  #say(line: string): void {
    this.#log(`system   | ${line}`);
  }

  #spawn(part: Part): void {
    const { spec } = part;
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
    part.child = child;
    part.startedAt = this.#now();
    part.expectedExit = false;
    // One formatter for both streams: fastify's request pair may be split across them.
    const format = this.#formatter(spec.name);
    const prefix = `${spec.name.padEnd(WIDTH)} | `;
    // The last lines shown for a crash are this process's own.
    part.lastLines = [];
    for (const stream of [child.stdout, child.stderr]) {
      if (stream) {
        createInterface({ input: stream }).on('line', (line) => {
          const shown = format(line);
          if (shown === undefined) return;
          this.#log(shown);
          // Kept as shown (the formatter's readable line), without the part's prefix.
          part.lastLines.push(shown.startsWith(prefix) ? shown.slice(prefix.length) : shown);
          if (part.lastLines.length > LAST_LINES) part.lastLines.shift();
        });
      }
    }
    part.exited = new Promise<void>((resolve) => {
      // 'close', not 'exit': it comes after the child's pipes are drained, so its last lines are logged first.
      child.once('close', (code, signal) => {
        resolve();
        this.#exited(part, child, signal ?? `code ${code}`);
      });
      child.once('error', (err) => {
        // A spawn failure emits 'error' and no 'close'.
        if (child.pid === undefined) {
          resolve();
          this.#exited(part, child, `could not start: ${err.message}`);
        }
      });
    });
    if (part.restarts > 0) this.#say(`${spec.name} started again (pid ${child.pid ?? '?'}); ${this.status()}`);
    else this.#say(`${spec.name} started (pid ${child.pid ?? '?'})`);
  }

  #exited(part: Part, child: ChildProcess, how: string): void {
    // What the part started in its group (LibreOffice, Chromium, gateway workers) must not
    // outlive it: after a SIGKILL nobody else would stop them.
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // ESRCH: nothing left in the group.
      }
    }
    if (part.child !== child) return;
    if (this.#stopping !== undefined || part.expectedExit) return;
    const { spec } = part;
    const uptimeMs = this.#now() - part.startedAt;
    if (!spec.restart || !this.#restarting) {
      this.#failure = `${spec.name} exited unexpectedly (${how})`;
      this.#say(`${this.#failure}; stopping the rest`);
      void this.stop();
      return;
    }
    const { record, delayMs, looping } = afterCrash(part.crashes, uptimeMs, this.#policy);
    part.crashes = record;
    part.restartAt = this.#now() + delayMs;
    this.#say(`${spec.name} exited unexpectedly (${how}) after ${seconds(uptimeMs)} up; restarting in ${seconds(delayMs)} ` +
      `(crash ${record.inARow} in a row, ${record.total} in all)`);
    if (looping) {
      this.#say(`${spec.name} is crash-looping (${record.inARow} crashes in a row; retried every ${seconds(this.#policy.maxMs)} at most). Its last lines:`);
      for (const line of part.lastLines) this.#say(`  ${spec.name} > ${line}`);
    }
    this.#onCrash(spec.name);
    part.restartTimer = setTimeout(() => {
      part.restartTimer = undefined;
      part.restartAt = undefined;
      if (this.#stopping !== undefined) return;
      part.restarts += 1;
      this.#spawn(part);
    }, delayMs);
    this.#say(this.status());
  }

  /** From now on, restartable parts that die are started again (npm start calls it once every part answered). */
  enableRestarts(): void {
    this.#restarting = true;
  }

  /**
   * Stops one restartable part on purpose and starts it again (a rolling restart's step):
   * SIGTERM (the part drains), SIGKILL after the grace time, then a new child. Resolves once
   * the new child is spawned; the caller waits for it to be healthy.
   */
  async restart(name: string): Promise<number | undefined> {
    const part = this.#part(name);
    if (this.#stopping !== undefined) return undefined;
    if (part.restartTimer !== undefined) {
      // Already down, waiting for its backoff: start it now.
      clearTimeout(part.restartTimer);
      part.restartTimer = undefined;
      part.restartAt = undefined;
    } else {
      part.expectedExit = true;
      await this.#stopChild(part);
    }
    if (this.#stopping !== undefined) return undefined;
    part.restarts += 1;
    this.#spawn(part);
    return part.child?.pid;
  }

  #part(name: string): Part {
    const part = this.#parts.find((p) => p.spec.name === name);
    if (!part) throw new Error(`no part named ${name}`);
    return part;
  }

  /** Stops every part (SIGTERM, then SIGKILL after the grace time); idempotent. */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      for (const p of this.#parts) {
        if (p.restartTimer !== undefined) clearTimeout(p.restartTimer);
        p.restartTimer = undefined;
      }
      // The entry point (the essential parts, started last) drains and exits before the parts
      // behind it are told to stop, so no request reaches a dying part (docs/operations.md §3);
      // those then stop together.
      const essential = this.#parts.filter((p) => !p.spec.restart).reverse();
      for (const p of essential) await this.#stopChild(p);
      await Promise.all(this.#parts.filter((p) => p.spec.restart).map((p) => this.#stopChild(p)));
      this.#resolveDone();
    })();
    return this.#stopping;
  }

  /** SIGTERM, then SIGKILL if the part is still running after the grace time; resolves on exit. */
  async #stopChild(part: Part): Promise<void> {
    const child = part.child;
    if (!child || child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return part.exited;
    child.kill('SIGTERM');
    const timer = setTimeout(() => {
      if (child.exitCode === null && child.signalCode === null) {
        this.#say(`${part.spec.name} did not stop within ${seconds(this.#graceMs)}; killing it`);
        child.kill('SIGKILL');
      }
    }, this.#graceMs);
    await part.exited;
    clearTimeout(timer);
  }

  /**
   * SIGKILL to every part's process group (the part and whatever it started: LibreOffice,
   * Chromium, gateway workers), for an impatient second Ctrl-C. Does not wait.
   */
  kill(): void {
    for (const p of this.#parts) {
      if (p.restartTimer !== undefined) clearTimeout(p.restartTimer);
      const child = p.child;
      if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) continue;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // ESRCH: the group is already gone.
      }
    }
  }

  /** Resolves when everything has stopped; carries the reason if an essential part died on its own. */
  async done(): Promise<{ failure: string | undefined }> {
    await this.#done;
    return { failure: this.#failure };
  }

  /** Why the system stopped on its own (an essential part died), if it did. */
  get failure(): string | undefined {
    return this.#failure;
  }

  /** Names of the parts started so far. */
  get names(): string[] {
    return this.#parts.map((p) => p.spec.name);
  }

  /** The names of the parts that are restarted when they die (the esign instances). */
  get restartable(): string[] {
    return this.#parts.filter((p) => p.spec.restart).map((p) => p.spec.name);
  }

  /** One line: every part, up or waiting to restart, with its restarts. */
  status(): string {
    const now = this.#now();
    return formatStatusLine(this.#parts.map((p): PartStatus => {
      const running = p.child !== undefined && p.child.exitCode === null && p.child.signalCode === null;
      return {
        name: p.spec.name,
        ...(running ? { upMs: now - p.startedAt } : {}),
        ...(p.restartAt !== undefined ? { restartInMs: Math.max(0, p.restartAt - now) } : {}),
        restarts: p.restarts,
        crashesInARow: p.crashes.inARow,
      };
    }));
  }
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}
