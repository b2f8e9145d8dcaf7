import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

/** Settings of `npm start`, read once from the environment and validated before anything starts. */
export type SystemConfig = {
  /** Runtime state: SQLite file, dev TLS material, dev mailbox. */
  dataDir: string;
  /** The kong.yml npm start renders for the gateway (GATEWAY_KONG_YML, default deploy/kong.yml); re-read on SIGHUP. */
  kongTemplatePath: string;
  /** The URL every link points at (the gateway's TLS listener by default). */
  publicUrl: string;
  smtpUrl: string | undefined;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  gateway: { httpPort: number; httpsPort: number; adminPort: number };
  /** One esign instance per port, all behind the gateway's upstream. */
  esignPorts: number[];
  /** `pretty`: one readable line per event; `json`: the parts' pino lines as they are, for a log shipper. */
  logFormat: 'pretty' | 'json';
  /** Show the successful /health probes of the gateway's active checker (hidden by default: noise). */
  logHealthProbes: boolean;
  /** Delay before restarting a crashed esign instance: the first, doubling up to the cap (RESTART_BACKOFF_INITIAL_MS, RESTART_BACKOFF_MAX_MS). */
  restartBackoff: { initialMs: number; maxMs: number };
  /**
   * The gateway admin token when the operator set one (KONG_ADMIN_TOKEN, or the file
   * KONG_ADMIN_TOKEN_FILE names): the gateway inherits the variable and then demands the
   * token, so the launcher's own admin probe must send it.
   */
  adminToken: string | undefined;
};

/** A setting that stops start, naming the setting. */
export class SystemConfigError extends Error {}

function port(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new SystemConfigError(`${name} must be a port number (1-65535), got "${raw}"`);
  return n;
}

function millis(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 3_600_000) throw new SystemConfigError(`${name} must be a whole number of milliseconds (1-3600000), got "${raw}"`);
  return n;
}

function url(env: NodeJS.ProcessEnv, name: string, protocols: readonly string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new SystemConfigError(`${name} is not a URL: "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new SystemConfigError(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  }
  return raw;
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(values as readonly string[]).includes(raw)) throw new SystemConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
  return raw as T;
}

function adminToken(env: NodeJS.ProcessEnv): string | undefined {
  const inline = env.KONG_ADMIN_TOKEN === '' ? undefined : env.KONG_ADMIN_TOKEN;
  const file = env.KONG_ADMIN_TOKEN_FILE === '' ? undefined : env.KONG_ADMIN_TOKEN_FILE;
  if (inline !== undefined && file !== undefined) throw new SystemConfigError('set KONG_ADMIN_TOKEN or KONG_ADMIN_TOKEN_FILE, not both');
  if (file === undefined) return inline?.trim();
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new SystemConfigError(`KONG_ADMIN_TOKEN_FILE: cannot read ${file}: ${(err as Error).message}`);
  }
}

/** Reads and validates the whole system's settings; throws SystemConfigError on the first bad one. */
export function loadSystemConfig(env: NodeJS.ProcessEnv, repoRoot: string): SystemConfig {
  const dataDir = env.DATA_DIR ? (isAbsolute(env.DATA_DIR) ? env.DATA_DIR : resolve(repoRoot, env.DATA_DIR)) : join(repoRoot, 'var');
  const httpsPort = port(env, 'GATEWAY_HTTPS_PORT', 8443);
  const publicUrl = url(env, 'PUBLIC_URL', ['https:', 'http:']) ?? `https://localhost:${httpsPort}`;
  const esignPorts = (env.ESIGN_PORTS ?? '3001,3002').split(',').map((p, i) => port({ [`ESIGN_PORTS[${i}]`]: p.trim() }, `ESIGN_PORTS[${i}]`, 0));
  if (esignPorts.length === 0 || esignPorts.some((p) => p === 0)) throw new SystemConfigError('ESIGN_PORTS must list at least one port');
  const gateway = { httpPort: port(env, 'GATEWAY_HTTP_PORT', 8000), httpsPort, adminPort: port(env, 'GATEWAY_ADMIN_PORT', 8001) };
  const all = [...esignPorts, gateway.httpPort, gateway.httpsPort, gateway.adminPort];
  const twice = all.find((p, i) => all.indexOf(p) !== i);
  if (twice !== undefined) throw new SystemConfigError(`port ${twice} is given twice (ESIGN_PORTS, GATEWAY_HTTP_PORT, GATEWAY_HTTPS_PORT, GATEWAY_ADMIN_PORT must all differ)`);
  const kongTemplatePath = env.GATEWAY_KONG_YML ? resolve(repoRoot, env.GATEWAY_KONG_YML) : join(repoRoot, 'deploy/kong.yml');
  if (env.GATEWAY_KONG_YML && !existsSync(kongTemplatePath)) throw new SystemConfigError(`GATEWAY_KONG_YML: no file at ${kongTemplatePath}`);
  const restartBackoff = { initialMs: millis(env, 'RESTART_BACKOFF_INITIAL_MS', 1000), maxMs: millis(env, 'RESTART_BACKOFF_MAX_MS', 30_000) };
  if (restartBackoff.initialMs > restartBackoff.maxMs) throw new SystemConfigError(`RESTART_BACKOFF_INITIAL_MS (${restartBackoff.initialMs}) must not exceed RESTART_BACKOFF_MAX_MS (${restartBackoff.maxMs})`);
  return {
    dataDir,
    kongTemplatePath,
    publicUrl: publicUrl.replace(/\/+$/, ''),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    gateway,
    esignPorts,
    logFormat: oneOf(env, 'LOG_FORMAT', ['pretty', 'json'], 'pretty'),
    logHealthProbes: oneOf(env, 'LOG_HEALTH_PROBES', ['0', '1', 'false', 'true'], 'false') === '1' || env.LOG_HEALTH_PROBES === 'true',
    restartBackoff,
    adminToken: adminToken(env),
  };
}
