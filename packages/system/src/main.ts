// `npm start`: the whole system on one machine. The only place that reads process.env.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync, rmSync } from 'node:fs';
import { ensurePrivateDir, PrivatePathError, writePrivateFile } from '@signet/kit';
import { loadSystemConfig, SystemConfigError, type SystemConfig } from './config.ts';
import { ensureDevTls } from './dev-tls.ts';
import { buildSystemPlan } from './plan.ts';
import { renderKongYml } from './render-kong-yml.ts';
import { Supervisor } from './supervisor.ts';
import { DEFAULT_RESTART_POLICY } from './restart-policy.ts';
import { createLogFormatter } from './create-log-formatter.ts';
import { findBusyPorts } from './find-busy-ports.ts';
import { waitUntilReady, type ReadinessProbe } from './wait-until-ready.ts';
import { gatewayAdmin, type GatewayAdmin } from './gateway-admin.ts';
import { rollingRestart } from './rolling-restart.ts';
import { PID_FILE } from './pid-file.ts';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../..');
// First start (LibreOffice and Chromium warm-up, SQLite migrations) fits well inside this.
const START_TIMEOUT_MS = 120_000;
// deploy/kong.yml's upstream for the esign instances.
const ESIGN_UPSTREAM = 'esign.upstream';
const say = (line: string): void => {
  process.stdout.write(`system   | ${line}\n`);
};

async function main(): Promise<number> {
  let config;
  try {
    config = loadSystemConfig(process.env, repoRoot);
  } catch (err) {
    if (err instanceof SystemConfigError) {
      console.error(`signet: ${err.message}`);
      return 2;
    }
    throw err;
  }
  // Private (0700; files 0600): kong.yml carries the TLS key, the SQLite files every envelope.
  let tls;
  try {
    ensurePrivateDir(config.dataDir);
    tls = ensureDevTls(config.dataDir);
  } catch (err) {
    if (err instanceof PrivatePathError) {
      console.error(`signet: DATA_DIR: ${err.message}`);
      return 2;
    }
    throw err;
  }
  say(`${tls.created ? 'created' : 'using'} development CA ${tls.caPath} (trust it with NODE_EXTRA_CA_CERTS=${tls.caPath})`);

  const kongYml = join(config.dataDir, 'kong.yml');
  const renderGatewayConfig = () => renderKongYml(readFileSync(config.kongTemplatePath, 'utf8'), {
    esignPorts: config.esignPorts,
    certPem: readFileSync(tls.certPath, 'utf8'),
    keyPem: readFileSync(tls.keyPath, 'utf8'),
  });
  writePrivateFile(kongYml, renderGatewayConfig());
  say(`gateway config ${kongYml} (from ${config.kongTemplatePath})`);
  const plan = buildSystemPlan(config, tls, kongYml, repoRoot);
  if (plan.missing.length > 0) say(`not available yet: ${plan.missing.join(', ')}`);
  const { httpPort, httpsPort, adminPort } = config.gateway;
  const busy = await findBusyPorts([
    ...config.esignPorts.map((port) => ({ setting: 'ESIGN_PORTS', port })),
    { setting: 'GATEWAY_HTTP_PORT', port: httpPort },
    { setting: 'GATEWAY_HTTPS_PORT', port: httpsPort },
    { setting: 'GATEWAY_ADMIN_PORT', port: adminPort },
  ]);
  if (busy.length > 0) {
    for (const b of busy) console.error(`signet: port ${b.port} (${b.setting}) is already in use on 127.0.0.1; stop what listens there or choose another port`);
    return 1;
  }
  const admin = gatewayAdmin(`http://127.0.0.1:${adminPort}`, ESIGN_UPSTREAM, config.adminToken);
  const instances = config.esignPorts.map((port, i) => ({ name: `esign-${i + 1}`, target: `127.0.0.1:${port}`, healthUrl: `http://127.0.0.1:${port}/health` }));
  const supervisor = new Supervisor({
    restartPolicy: { ...DEFAULT_RESTART_POLICY, ...config.restartBackoff },
    log: (l) => process.stdout.write(`${l}\n`),
    ...(config.logFormat === 'pretty' ? { formatter: (part: string) => createLogFormatter(part, { showHealthProbes: config.logHealthProbes }) } : {}),
    // A dead instance leaves the rotation at once instead of after the passive checks' failures;
    // the active checks take it back once its successor answers /health.
    onCrash: (name) => {
      const instance = instances.find((i) => i.name === name);
      if (instance) admin.mark(instance.target, 'unhealthy').catch((err: unknown) => say(`could not mark ${instance.target} unhealthy: ${(err as Error).message}`));
    },
  });
  // The first SIGINT/SIGTERM stops the parts in order. One Ctrl-C in a terminal can arrive twice
  // (the terminal signals npm and this process, and npm forwards its copy), so only a signal
  // more than a second after the first counts as an impatient second Ctrl-C: kill and exit.
  let firstSignalAt: number | undefined;
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      const now = Date.now();
      if (firstSignalAt === undefined) {
        firstSignalAt = now;
        say(`${sig}: stopping`);
        void supervisor.stop();
      } else if (now - firstSignalAt > 1000) {
        say(`${sig} again: killing every part`);
        supervisor.kill();
        process.exit(130);
      }
    });
  }
  for (const part of plan.parts) supervisor.start(part);
  if (plan.parts.length === 0) {
    // Nothing to supervise yet: stay up until asked to stop, like the full system would
    // (signal listeners alone do not keep node's event loop alive).
    const keepAlive = setInterval(() => {}, 60_000);
    await supervisor.done();
    clearInterval(keepAlive);
  }
  say(`starting ${supervisor.names.join(', ')}; waiting until each one answers`);
  const readiness = await waitUntilReady(readinessProbes(config), { timeoutMs: START_TIMEOUT_MS, stopped: supervisor.done() });
  if (!readiness.ready) {
    say(`start failed: ${supervisor.failure ?? `${readiness.part}: ${readiness.reason}`}`);
    await supervisor.stop();
    return 1;
  }
  supervisor.enableRestarts();
  say(`ready. development CA   ${tls.caPath}  (NODE_EXTRA_CA_CERTS=${tls.caPath})`);
  say(`public URL     ${config.publicUrl}`);
  say(`console        ${config.publicUrl}/console`);
  say(`dev mailbox    ${config.smtpUrl ? '(off: SMTP_URL is set)' : `${config.publicUrl}/dev/mailbox  (answers only clients on this machine)`}`);
  if (!config.smtpUrl && !/^(localhost|127\.[0-9.]+|\[::1\])$/.test(new URL(config.publicUrl).hostname)) {
    say(`WARNING: SMTP_URL is not set, so signing links and completed documents go to the dev mailbox, but PUBLIC_URL ${config.publicUrl} is not on this machine. Set SMTP_URL before real people use it.`);
  }
  say(`gateway        http://127.0.0.1:${httpPort}  https://127.0.0.1:${httpsPort}`);
  say(`admin API      http://127.0.0.1:${adminPort}  (health: /upstreams/esign.upstream/health)`);
  say(`running: ${supervisor.names.join(', ')}; Ctrl-C stops everything, \`npm run restart\` (SIGHUP) restarts esign one instance at a time`);
  say(supervisor.status());
  const pidFile = join(config.dataDir, PID_FILE);
  writePrivateFile(pidFile, `${process.pid}\n`);
  // SIGHUP: apply a changed deploy/kong.yml through POST /config, then a rolling restart of the
  // esign instances. One more SIGHUP during a restart runs another once this one is done.
  let restarting: Promise<void> | undefined;
  let again = false;
  const restartAll = async (): Promise<void> => {
    do {
      again = false;
      await reloadGatewayConfig(admin, renderGatewayConfig, kongYml, config.kongTemplatePath);
      const result = await rollingRestart({ instances, restart: (name) => supervisor.restart(name), admin, answers: answersHealth, say, timeoutMs: START_TIMEOUT_MS });
      say(result.ok ? `rolling restart done; ${supervisor.status()}` : `rolling restart stopped: ${result.reason}; ${supervisor.status()}`);
    } while (again && supervisor.failure === undefined);
  };
  process.on('SIGHUP', () => {
    if (restarting) {
      again = true;
      say('SIGHUP: another rolling restart follows the one under way');
      return;
    }
    say('SIGHUP: reloading deploy/kong.yml, then restarting esign one instance at a time');
    restarting = restartAll().catch((err: unknown) => {
      say(`rolling restart failed: ${(err as Error).message}`);
    }).finally(() => {
      restarting = undefined;
    });
  });
  const { failure } = await supervisor.done();
  rmSync(pidFile, { force: true });
  say(failure ? `stopped: ${failure}` : 'stopped');
  return failure ? 1 : 0;
}

/** Whether an instance answers its own /health with 200. */
async function answersHealth(url: string): Promise<boolean> {
  const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
  await res.body?.cancel();
  return res.status === 200;
}

/**
 * deploy/kong.yml, rendered as at start, applied with POST /config (no restart). The file the
 * gateway reads at its next start is replaced only once the gateway has accepted the new one;
 * a refused file leaves the running config as it was.
 */
async function reloadGatewayConfig(admin: GatewayAdmin, render: () => string, kongYml: string, template: string): Promise<void> {
  let yaml: string;
  try {
    yaml = render();
  } catch (err) {
    say(`${template} not applied: ${(err as Error).message}`);
    return;
  }
  if (yaml === readFileSync(kongYml, 'utf8')) {
    say(`${template} unchanged`);
    return;
  }
  const applied = await admin.postConfig(yaml);
  if (!applied.ok) {
    say(`${template} refused by the gateway (${applied.status}): ${applied.message}; the gateway keeps its config`);
    return;
  }
  writePrivateFile(kongYml, yaml);
  say(`${template} applied (POST /config)`);
}

/** What must answer before the URLs are printed: each esign instance, the admin API, and the proxy path to esign. */
function readinessProbes(config: SystemConfig): ReadinessProbe[] {
  const { httpPort, adminPort } = config.gateway;
  return [
    ...config.esignPorts.map((port, i) => ({ part: `esign-${i + 1}`, url: `http://127.0.0.1:${port}/health` })),
    { part: 'gateway', url: `http://127.0.0.1:${adminPort}/status`, ...(config.adminToken ? { headers: { 'kong-admin-token': config.adminToken } } : {}) },
    { part: 'gateway', url: `http://127.0.0.1:${httpPort}/health` },
  ];
}

process.exitCode = await main();
