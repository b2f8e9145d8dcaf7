// `npm start`: the whole system on one machine. The only place that reads process.env.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadSystemConfig, SystemConfigError } from './config.ts';
import { ensureDevTls } from './dev-tls.ts';
import { buildSystemPlan } from './plan.ts';
import { renderKongYml } from './render-kong-yml.ts';
import { Supervisor } from './supervisor.ts';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const say = (line: string) => process.stdout.write(`system   | ${line}\n`);

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
  mkdirSync(config.dataDir, { recursive: true });
  const tls = ensureDevTls(config.dataDir);
  say(`${tls.created ? 'created' : 'using'} development CA ${tls.caPath} (trust it with NODE_EXTRA_CA_CERTS=${tls.caPath})`);

  const kongYml = join(config.dataDir, 'kong.yml');
  writeFileSync(kongYml, renderKongYml(readFileSync(join(repoRoot, 'deploy/kong.yml'), 'utf8'), {
    esignPorts: config.esignPorts,
    certPem: readFileSync(tls.certPath, 'utf8'),
    keyPem: readFileSync(tls.keyPath, 'utf8'),
  }));
  say(`gateway config ${kongYml} (from deploy/kong.yml)`);
  const plan = buildSystemPlan(config, tls, kongYml, repoRoot);
  if (plan.missing.length > 0) say(`not available yet: ${plan.missing.join(', ')}`);

  const supervisor = new Supervisor({ log: (l) => process.stdout.write(`${l}\n`) });
  let signals = 0;
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      signals += 1;
      if (signals > 1) process.exit(130);
      say(`${sig}: stopping`);
      void supervisor.stop();
    });
  }
  for (const part of plan.parts) supervisor.start(part);

  const { httpPort, httpsPort, adminPort } = config.gateway;
  say(`public URL     ${config.publicUrl}`);
  say(`console        ${config.publicUrl}/console`);
  say(`dev mailbox    ${config.smtpUrl ? '(off: SMTP_URL is set)' : `${config.publicUrl}/dev/mailbox`}`);
  say(`gateway        http://127.0.0.1:${httpPort}  https://127.0.0.1:${httpsPort}  admin http://127.0.0.1:${adminPort}`);
  say(`running: ${supervisor.names.join(', ') || '(nothing yet)'}; Ctrl-C stops everything`);

  if (plan.parts.length === 0) {
    // Nothing to supervise yet: stay up until asked to stop, like the full system would
    // (signal listeners alone do not keep node's event loop alive).
    const keepAlive = setInterval(() => {}, 60_000);
    await supervisor.done();
    clearInterval(keepAlive);
  }
  const { failure } = await supervisor.done();
  say(failure ? `stopped: ${failure}` : 'stopped');
  return failure ? 1 : 0;
}

process.exitCode = await main();
