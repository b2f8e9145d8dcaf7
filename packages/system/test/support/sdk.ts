import { execFile } from 'node:child_process';
import { join } from 'node:path';

// The same one-call runner the esign SDK compatibility tests use.
const SDK_CALL = join(import.meta.dirname, '../../../esign/test/compat/sdk-step.mjs');

type StepResult = { ok: true; value: unknown } | { ok: false; status?: number; data?: unknown; code?: string; message: string };

/** Runs one docusign-esign SDK call in a child that trusts `caPath`; returns its value or throws with the wire error. */
export function sdkCall<T>(caPath: string, step: string, args: Record<string, unknown>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    execFile(process.execPath, [SDK_CALL, JSON.stringify({ step, ...args })], { env: { ...process.env, NODE_EXTRA_CA_CERTS: caPath }, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) {
        reject(new Error(`sdk step ${step} crashed: ${stderr}`, { cause: err }));
        return;
      }
      const result = JSON.parse(stdout) as StepResult;
      if (result.ok) resolve(result.value as T);
      else reject(new Error(`SDK ${step} failed: ${JSON.stringify(result)}`));
    });
  });
}
