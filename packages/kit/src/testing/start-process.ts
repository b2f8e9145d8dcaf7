import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export type StartedProcess = {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output: () => string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
  stop: (graceMs?: number) => Promise<number | null>;
  exited: Promise<number | null>;
};

/** Spawns a process for a test, capturing its output; every test that starts one stops it. */
export function startProcess(command: string, args: readonly string[], options: SpawnOptions = {}): StartedProcess {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
  const stop = async (graceMs = 5000): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    }
    return exited;
  };
  return { child, output: () => out, stop, exited };
}
