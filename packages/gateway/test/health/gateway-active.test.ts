// Active health checks through the real gateway process (Kong's 01-healthchecks_spec.lua and 08-targets_routes_spec.lua) with Kong's
// exact counts: the probes hit /status, the traffic /traffic, on upstreams switched per path.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCertificateAuthority, issueCertificate, pollUntil, type KeyPair } from '@signet/kit';
import { SwitchableUpstream } from './switchable-upstream.ts';
import { sendMany, startGatewayProcess, targetHealth, type GatewayProcess } from './gateway-process.ts';
import { healthKongYml, UPSTREAM } from './kong-yml.fixture.ts';

async function upstreams(t: TestContext, n: number, tls?: KeyPair): Promise<SwitchableUpstream[]> {
  const list: SwitchableUpstream[] = [];
  for (let i = 0; i < n; i++) list.push(await SwitchableUpstream.start(tls));
  t.after(async () => {
    for (const s of list) await s.close();
  });
  return list;
}

const ok = (statuses: readonly number[]): number => statuses.filter((s) => s === 200).length;

function untilHealth(g: GatewayProcess, target: string, health: string): Promise<true> {
  return pollUntil(async () => (await targetHealth(g.admin, UPSTREAM))[target] === health || undefined, {
    what: `${target} ${health}`,
    timeoutMs: 10_000,
    intervalMs: 50,
  });
}

for (const n of [1, 3]) {
  test(`§6.34: active up→down with http_failures ${n}: server 1 exactly 15, server 2 exactly 5`, async (t) => {
    const [s1, s2] = (await upstreams(t, 2)) as [SwitchableUpstream, SwitchableUpstream];
    const g = await startGatewayProcess(t, healthKongYml([s1, s2], {
      healthchecks: { active: { http_path: '/status', healthy: { interval: 0.1, successes: 1 }, unhealthy: { interval: 0.1, http_failures: n } } },
    }));
    assert.equal(ok(await sendMany(`${g.proxy}/traffic`, 10)), 10);
    s2.pathModes.set('/status', 'fail');
    await untilHealth(g, s2.target, 'UNHEALTHY');
    assert.equal(ok(await sendMany(`${g.proxy}/traffic`, 10)), 10);
    assert.deepEqual([s1.answered(200, '/traffic'), s2.answered(200, '/traffic')], [15, 5]);
    assert.ok(s2.answered(500, '/status') >= n);
  });
}

for (const protocol of ['http', 'https'] as const) {
  test(`§6.35: active automatic recovery over ${protocol}: server 1 exactly 20, server 2 exactly 10`, async (t) => {
    const ca = protocol === 'https' ? createCertificateAuthority({ commonName: 'Health test CA' }) : undefined;
    const leaf = ca ? issueCertificate({ commonName: 'localhost', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] }, ca) : undefined;
    const [s1, s2] = (await upstreams(t, 2, leaf)) as [SwitchableUpstream, SwitchableUpstream];
    const env: Record<string, string> = {};
    if (ca) {
      // The probe verifies the certificate (https_verify_certificate defaults to true).
      const dir = await mkdtemp(join(tmpdir(), 'signet-ca-'));
      t.after(() => rm(dir, { recursive: true, force: true }));
      env.NODE_EXTRA_CA_CERTS = join(dir, 'ca.pem');
      await writeFile(env.NODE_EXTRA_CA_CERTS, ca.certPem);
    }
    const g = await startGatewayProcess(t, healthKongYml([s1, s2], {
      protocol,
      healthchecks: {
        active: { type: protocol, https_sni: 'localhost', http_path: '/status', healthy: { interval: 0.1, successes: 3 }, unhealthy: { interval: 0.1, http_failures: 3 } },
      },
    }), { env });
    assert.equal(ok(await sendMany(`${g.proxy}/traffic`, 10)), 10);
    s2.pathModes.set('/status', 'fail');
    await untilHealth(g, s2.target, 'UNHEALTHY');
    assert.equal(ok(await sendMany(`${g.proxy}/traffic`, 10)), 10);
    s2.pathModes.delete('/status');
    await untilHealth(g, s2.target, 'HEALTHY');
    assert.equal(ok(await sendMany(`${g.proxy}/traffic`, 10)), 10);
    assert.deepEqual([s1.answered(200, '/traffic'), s2.answered(200, '/traffic')], [20, 10]);
  });
}

test('§6.36 and §6.40: detected before any traffic; a refusing target goes UNHEALTHY on tcp_failures 1', async (t) => {
  const [s1, s2, s3] = (await upstreams(t, 3)) as [SwitchableUpstream, SwitchableUpstream, SwitchableUpstream];
  s2.pathModes.set('/status', 'fail');
  await s3.refuse();
  const g = await startGatewayProcess(t, healthKongYml([s1, s2, s3], {
    healthchecks: { active: { http_path: '/status', healthy: { interval: 0.1 }, unhealthy: { interval: 0.1, http_failures: 2, tcp_failures: 1 } } },
  }));
  await untilHealth(g, s2.target, 'UNHEALTHY');
  await untilHealth(g, s3.target, 'UNHEALTHY');
  assert.equal(ok(await sendMany(`${g.proxy}/traffic`, 20)), 20);
  assert.deepEqual([s1.answered(200, '/traffic'), s2.answered(200, '/traffic')], [20, 0]);
  assert.equal((await targetHealth(g.admin, UPSTREAM))[s1.target], 'HEALTHY');
});
