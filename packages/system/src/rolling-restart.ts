import type { GatewayAdmin } from './gateway-admin.ts';

/** An esign instance as the rolling restart sees it. */
export type Instance = { name: string; target: string; healthUrl: string };

export type RollingRestartDeps = {
  instances: readonly Instance[];
  /** Stops the part on purpose (SIGTERM: it drains), starts a new one; resolves once spawned. */
  restart: (name: string) => Promise<number | undefined>;
  admin: GatewayAdmin;
  /** Whether the instance itself answers /health with 200. */
  answers: (healthUrl: string) => Promise<boolean>;
  say: (line: string) => void;
  /** How long one instance may take to come back HEALTHY. */
  timeoutMs: number;
  pollMs?: number;
};

export type RollingRestartResult = { ok: true } | { ok: false; reason: string };

/**
 * Restarts the instances one at a time without dropping a request: the instance is told to
 * stop (it drains: /health 503, requests still served) and is taken out of the gateway's
 * rotation at once through the admin API; once its traffic has stopped it exits; a new one
 * starts, answers /health, is put back and seen HEALTHY before the next one is touched. An
 * instance is never taken out while no other one is HEALTHY.
 */
export async function rollingRestart(deps: RollingRestartDeps): Promise<RollingRestartResult> {
  const { instances, admin, say } = deps;
  const pollMs = deps.pollMs ?? 200;
  const until = async (what: string, check: () => Promise<boolean>): Promise<boolean> => {
    const deadline = Date.now() + deps.timeoutMs;
    for (;;) {
      if (await check().catch(() => false)) return true;
      if (Date.now() >= deadline) {
        say(`rolling restart: gave up waiting for ${what} after ${Math.round(deps.timeoutMs / 1000)} s`);
        return false;
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  };
  for (const [i, instance] of instances.entries()) {
    const others = instances.filter((o) => o !== instance);
    if (others.length > 0) {
      const anotherHealthy = async () => (await Promise.all(others.map((o) => admin.health(o.target)))).includes('HEALTHY');
      if (!(await until(`another instance to be HEALTHY before ${instance.name} is taken out`, anotherHealthy))) {
        return { ok: false, reason: `no instance but ${instance.name} is HEALTHY; it was left running` };
      }
    }
    say(`rolling restart ${i + 1}/${instances.length}: ${instance.name} out of rotation, draining`);
    // SIGTERM first (restart() sends it before its first await): the instance then answers 503
    // to health probes, so the active checker cannot put it back after the admin call below.
    const restarting = deps.restart(instance.name);
    await admin.mark(instance.target, 'unhealthy').catch((err: unknown) => say(`rolling restart: could not mark ${instance.target} unhealthy: ${(err as Error).message}`));
    const pid = await restarting;
    if (pid === undefined) return { ok: false, reason: 'the system is stopping' };
    if (!(await until(`${instance.name} to answer /health`, () => deps.answers(instance.healthUrl)))) {
      return { ok: false, reason: `${instance.name} did not answer /health` };
    }
    await admin.mark(instance.target, 'healthy').catch((err: unknown) => say(`rolling restart: could not mark ${instance.target} healthy: ${(err as Error).message}`));
    if (!(await until(`${instance.name} to be HEALTHY in the gateway`, async () => (await admin.health(instance.target)) === 'HEALTHY'))) {
      return { ok: false, reason: `${instance.name} did not become HEALTHY` };
    }
    say(`rolling restart ${i + 1}/${instances.length}: ${instance.name} back (pid ${pid}), HEALTHY`);
  }
  return { ok: true };
}
