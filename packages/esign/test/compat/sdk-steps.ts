import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';

const STEP = join(dirname(fileURLToPath(import.meta.url)), 'sdk-step.mjs');

/** What one SDK call gave: its value, or the wire error the SDK rejected with. */
export type StepResult = { ok: true; value: unknown } | { ok: false; status?: number; data?: unknown; code?: string; message: string };

/**
 * One child (sdk-step.mjs --lines) that runs every docusign-esign SDK call of a test, started
 * with `env` (NODE_EXTRA_CA_CERTS: the CA it trusts) and stopped in teardown. A child per call
 * loaded the SDK again each time (~0.4 s of CPU); the calls and what they answer are the same.
 */
export function startSdkSteps(t: TestContext, env: NodeJS.ProcessEnv): (step: string, args: Record<string, unknown>) => Promise<StepResult> {
  const child = spawn(process.execPath, [STEP, '--lines'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const pending = new Map<number, { resolve: (r: StepResult) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  let gone = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A write to a child that died fails through its exit, below, not as an unhandled EPIPE.
  child.stdin.on('error', () => undefined);
  void exited.then(() => {
    gone = true;
    for (const [, call] of pending) {
      clearTimeout(call.timer);
      call.reject(new Error(`the SDK child exited: ${stderr}`));
    }
    pending.clear();
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    const { id, ...result } = JSON.parse(line) as StepResult & { id: number };
    const call = pending.get(id);
    if (!call) return;
    pending.delete(id);
    clearTimeout(call.timer);
    call.resolve(result);
  });
  t.after(async () => {
    child.stdin.end();
    // It exits once stdin ends and its last answer is out; a call still hanging is cut short.
    const cutShort = setTimeout(() => child.kill(), 10_000);
    await exited;
    clearTimeout(cutShort);
  });
  let nextId = 0;
  return (step, args) => new Promise<StepResult>((resolve, reject) => {
    if (gone) {
      reject(new Error(`the SDK child exited: ${stderr}`));
      return;
    }
    const id = ++nextId;
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error(`sdk step ${step} did not answer in 60 s: ${stderr}`));
    }, 60_000);
    pending.set(id, { resolve, reject, timer });
    child.stdin.write(`${JSON.stringify({ id, step, ...args })}\n`);
  });
}
