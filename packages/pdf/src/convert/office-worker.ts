import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createInterface } from 'node:readline';

/** Where Debian puts LibreOffice and the Python that has `uno` (pyenv's python3 does not). */
export type OfficePaths = {
  soffice: string;
  python: string;
  /** Command prefix soffice runs under, e.g. `unshare --net --` ({@link detectNetworkSandbox}). */
  sandbox?: readonly string[] | undefined;
};

export const DEFAULT_OFFICE_PATHS: OfficePaths = {
  soffice: '/usr/lib/libreoffice/program/soffice.bin',
  python: '/usr/bin/python3',
};

/** soffice.bin's "restart me" exit code (the first start on a fresh profile ends with it). */
export const SOFFICE_RESTART = 81;

/**
 * Settings written into every fresh profile. BlockUntrustedRefererLinks stops a document from
 * making LibreOffice fetch linked content (a docx image with TargetMode="External" is fetched
 * over http at load otherwise: server-side request forgery). Macros are off as well.
 */
export const PROFILE_SETTINGS = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution" oor:op="fuse"><value>true</value></prop></item>
</oor:items>
`;

/** How long an idle worker's soffice gets to terminate cleanly before it is killed. */
const GRACEFUL_STOP_MS = 3000;

const WORKER_SCRIPT = fileURLToPath(new URL('./uno-worker.py', import.meta.url));

export type OfficeRequest = {
  input: string;
  output: string;
  /** Export filter, e.g. writer_pdf_Export. */
  filter: string;
  /** Import filter when type detection is not enough (plain text). */
  infilter?: string;
  infilterOptions?: string;
};

type Reply = { id: number; ok: boolean; error?: string };
type Pending = { resolve: (r: Reply) => void; reject: (e: Error) => void };

/** A document LibreOffice itself rejected (the worker is fine). */
export class OfficeDocumentError extends Error {}

/**
 * One warm LibreOffice: a soffice process with its own profile directory (two soffice sharing a
 * profile silently lose documents: docs/pdf.md, "Conversion") and one /usr/bin/python3
 * UNO worker holding a connection to it. A document costs 30-50 ms instead of ~0.9 s cold.
 *
 * `stop()` SIGKILLs both, so a conversion that hangs costs a restart, not a stuck worker.
 */
export class OfficeWorker {
  readonly #paths: OfficePaths;
  readonly #profileDir: string;
  readonly #startTimeoutMs: number;
  #soffice: ChildProcess | undefined;
  #python: ChildProcess | undefined;
  #pending = new Map<number, Pending>();
  #pipe = '';
  #nextId = 1;
  #dead = false;
  #stopping = false;
  #stderr = '';

  constructor(profileDir: string, paths: OfficePaths = DEFAULT_OFFICE_PATHS, startTimeoutMs = 60_000) {
    this.#profileDir = profileDir;
    this.#paths = paths;
    this.#startTimeoutMs = startTimeoutMs;
  }

  /** False once either process exited or `stop()` ran: the pool must replace this worker. */
  get alive(): boolean {
    return !this.#dead;
  }

  /** The soffice.bin pid (tests kill it to prove the pool restarts workers). */
  get pid(): number | undefined {
    return this.#soffice?.pid;
  }

  /** Starts soffice and the UNO worker; resolves once the worker has connected. */
  async start(): Promise<void> {
    await mkdir(join(this.#profileDir, 'user'), { recursive: true });
    await writeFile(join(this.#profileDir, 'user', 'registrymodifications.xcu'), PROFILE_SETTINGS);
    const pipe = `signet-${process.pid}-${randomBytes(6).toString('hex')}`;
    this.#pipe = pipe;
    this.#spawnSoffice([
      '--headless', '--invisible', '--nologo', '--norestore', '--nodefault', '--nolockcheck',
      `--accept=pipe,name=${pipe};urp;`,
      `-env:UserInstallation=${pathToFileURL(this.#profileDir).href}`,
    ]);

    const python = spawn(this.#paths.python, [WORKER_SCRIPT, pipe], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.#python = python;
    python.stderr.on('data', (d: Buffer) => (this.#stderr = (this.#stderr + d.toString()).slice(-4000)));
    python.once('exit', () => this.#die(new Error(`UNO worker exited: ${this.#stderr.trim().split('\n').pop() ?? ''}`)));
    python.once('error', (err) => this.#die(err));
    python.stdin.on('error', () => undefined);

    const lines = createInterface({ input: python.stdout });
    const ready = new Promise<void>((resolve, reject) => {
      this.#pending.set(0, { resolve: () => resolve(), reject });
    });
    lines.on('line', (line) => this.#onLine(line));
    const timer = setTimeout(() => this.#die(new Error(`LibreOffice did not start within ${this.#startTimeoutMs} ms`)), this.#startTimeoutMs);
    try {
      await ready;
    } finally {
      clearTimeout(timer);
    }
  }

  // soffice.bin is spawned directly, not through the soffice script and oosplash: killed
  // together, oosplash would orphan soffice.bin to a PID 1 that may never reap it. oosplash's
  // one job we need is the restart after a fresh profile is created (exit code 81).
  #spawnSoffice(args: string[]): void {
    // `unshare` execs soffice.bin in place, so the child's pid is soffice's own.
    const [command, ...prefix] = [...(this.#paths.sandbox ?? []), this.#paths.soffice];
    const child = spawn(command, [...prefix, ...args], { stdio: 'ignore' });
    this.#soffice = child;
    child.once('error', (err) => this.#die(err));
    child.once('exit', (code) => {
      if (code === SOFFICE_RESTART && !this.#dead && !this.#stopping) this.#spawnSoffice(args);
      else this.#die(new Error(`soffice exited with ${code}`));
    });
  }

  /** Converts one document; rejects with OfficeDocumentError when LibreOffice refuses it. */
  async convert(req: OfficeRequest): Promise<void> {
    if (this.#dead || !this.#python?.stdin) throw new Error('UNO worker is not running');
    const id = this.#nextId++;
    const reply = await new Promise<Reply>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#python?.stdin?.write(JSON.stringify({ id, ...req }) + '\n');
    });
    if (!reply.ok) throw new OfficeDocumentError(reply.error ?? 'LibreOffice failed');
  }

  /** Kills soffice's process group and the worker, then removes the profile directory. */
  async stop(): Promise<void> {
    if (!this.#dead && this.#pending.size === 0 && this.#soffice && this.#python?.stdin) {
      // Idle: end the worker's stdin so it asks soffice to terminate, which removes its pipes
      // (a SIGKILLed soffice leaves OSL_PIPE_* files in /tmp); kill it if that takes too long.
      const soffice = this.#soffice;
      this.#stopping = true;
      const exited = new Promise<void>((resolve) => {
        if (soffice.exitCode !== null || soffice.signalCode !== null) resolve();
        else soffice.once('exit', () => resolve());
      });
      this.#python.stdin.end();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, GRACEFUL_STOP_MS)))]);
      clearTimeout(timer);
      this.#stopping = false;
    }
    this.#die(new Error('UNO worker stopped'));
    const exits = [this.#soffice, this.#python].map((c) =>
      c && c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : Promise.resolve(),
    );
    await Promise.all(exits);
    await rm(this.#profileDir, { recursive: true, force: true });
    // A killed soffice leaves its named pipe's socket file behind (LibreOffice's osl layer
    // puts it in /tmp as OSL_PIPE_<uid>_<name>).
    if (this.#pipe) await rm(join('/tmp', `OSL_PIPE_${process.getuid?.() ?? 0}_${this.#pipe}`), { force: true });
  }

  #onLine(line: string): void {
    let msg: { ready?: boolean } & Partial<Reply>;
    try {
      msg = JSON.parse(line) as typeof msg;
    } catch {
      return;
    }
    const id = msg.ready ? 0 : msg.id;
    if (id === undefined) return;
    const p = this.#pending.get(id);
    if (!p) return;
    this.#pending.delete(id);
    p.resolve({ id, ok: msg.ok ?? true, ...(msg.error !== undefined ? { error: msg.error } : {}) });
  }

  #die(reason: Error): void {
    this.#dead = true;
    // While a graceful stop runs, the worker exits first and soffice is still shutting down:
    // stop() kills whatever is left once the grace period ends.
    if (!this.#stopping) this.#kill();
    for (const p of this.#pending.values()) p.reject(reason);
    this.#pending.clear();
  }

  #kill(): void {
    // SIGKILL: a hung soffice ignores SIGTERM while stuck in an import filter.
    if (this.#soffice?.exitCode === null && this.#soffice.signalCode === null) this.#soffice.kill('SIGKILL');
    if (this.#python?.exitCode === null && this.#python.signalCode === null) this.#python.kill('SIGKILL');
  }
}
