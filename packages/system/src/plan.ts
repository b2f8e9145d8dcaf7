import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { SystemConfig } from './config.ts';
import type { DevTls } from './dev-tls.ts';
import type { ProcessSpec } from './supervisor.ts';

/** What `npm start` runs, in start order, and what is not available yet. */
export type SystemPlan = { parts: ProcessSpec[]; missing: string[] };

/**
 * The processes of the whole system: esign instances first, then the gateway in front of
 * them. A part whose entry point does not exist yet is listed as missing instead.
 */
export function buildSystemPlan(config: SystemConfig, tls: DevTls, kongYmlPath: string, repoRoot: string): SystemPlan {
  const node = process.execPath;
  const tsx = ['--import', 'tsx'];
  const parts: ProcessSpec[] = [];
  const missing: string[] = [];

  const esignCli = join(repoRoot, 'packages/esign/src/cli.ts');
  if (existsSync(esignCli)) {
    config.esignPorts.forEach((port, i) => {
      parts.push({
        name: `esign-${i + 1}`,
        command: node,
        args: [...tsx, esignCli, 'serve'],
        cwd: repoRoot,
        // An instance that dies is started again while the other one serves.
        restart: true,
        env: {
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: config.dataDir,
          PUBLIC_URL: config.publicUrl,
          ...(config.smtpUrl ? { SMTP_URL: config.smtpUrl } : {}),
          ...(config.databaseUrl ? { DATABASE_URL: config.databaseUrl } : {}),
        },
      });
    });
  } else {
    missing.push('esign');
  }

  const gatewayCli = join(repoRoot, 'packages/gateway/src/cli.ts');
  if (existsSync(gatewayCli)) {
    const { httpPort, httpsPort, adminPort } = config.gateway;
    parts.push({
      name: 'gateway',
      command: node,
      // The gateway's V8 settings (packages/gateway/src/v8-flags.ts) hold from the first
      // allocation only when given on the command line.
      args: ['--no-allocation-site-pretenuring', ...tsx, gatewayCli, 'start', '--config', kongYmlPath,
        // Kong's default proxy_listen: HTTP/2 offered by ALPN on the TLS listener.
        '--proxy-listen', `127.0.0.1:${httpPort}, 127.0.0.1:${httpsPort} http2 ssl`,
        '--admin-listen', `127.0.0.1:${adminPort}`],
      cwd: repoRoot,
      env: {
        KONG_SSL_CERT: tls.certPath,
        KONG_SSL_CERT_KEY: tls.keyPath,
        ...(config.redisUrl ? { REDIS_URL: config.redisUrl } : {}),
      },
    });
  } else {
    missing.push('gateway');
  }
  return { parts, missing };
}
