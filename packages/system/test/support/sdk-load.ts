import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { TestContext } from 'node:test';

const SCRIPT = join(import.meta.dirname, 'sdk-load.mjs');

/** One SDK call of the load: when it started, which, and how it ended. */
export type LoadResult = { at: number; op: 'list' | 'create'; ok: boolean; status?: number; code?: string; message?: string };

export type SdkLoad = {
  results: LoadResult[];
  failures: () => LoadResult[];
  /** Ends the load after the calls in progress; resolves when the child has exited. */
  stop: () => Promise<void>;
};

/** Starts steady load from the docusign-esign SDK against `basePath` (stopped in teardown at the latest). */
export function startSdkLoad(t: TestContext, caPath: string, options: { basePath: string; accessToken: string; accountId: string; pdfBase64: string; loops: number; paceMs: number }): SdkLoad {
  const child = spawn(process.execPath, [SCRIPT, JSON.stringify(options)], { env: { ...process.env, NODE_EXTRA_CA_CERTS: caPath }, stdio: ['pipe', 'pipe', 'inherit'] });
  const results: LoadResult[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => results.push(JSON.parse(line) as LoadResult));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async () => {
    child.stdin.end();
    await exited;
  };
  t.after(stop);
  return { results, failures: () => results.filter((r) => !r.ok), stop };
}
