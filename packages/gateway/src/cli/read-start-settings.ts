import { STOP_WITH_PARENT_ENV } from '@signet/kit';
import { ConfigError, type GatewaySettings } from '../config.ts';

/** The start command's settings: Kong's names plus what only the cli layer knows. */
export type StartSettings = GatewaySettings & {
  /** A file holding the admin token (KONG_ADMIN_TOKEN_FILE), read into admin_token. */
  readonly admin_token_file?: string | undefined;
  /** Started by npm start's supervisor (SIGNET_STOP_WITH_PARENT=1): stop when it is gone. */
  readonly supervised: boolean;
};

// Flag → Kong setting. Flags win over KONG_* variables, as Kong's CLI options win over the env.
const FLAGS: Readonly<Record<string, keyof StartSettings>> = {
  '--config': 'declarative_config',
  '-c': 'declarative_config',
  '--proxy-listen': 'proxy_listen',
  '--admin-listen': 'admin_listen',
  '--stream-listen': 'stream_listen',
  '--workers': 'nginx_worker_processes',
  '--ssl-cert': 'ssl_cert',
  '--ssl-cert-key': 'ssl_cert_key',
  '--plugins': 'plugins',
  '--worker-cpu-affinity': 'nginx_main_worker_cpu_affinity',
};

const ENV: Readonly<Record<string, keyof StartSettings>> = {
  KONG_DECLARATIVE_CONFIG: 'declarative_config',
  KONG_PROXY_LISTEN: 'proxy_listen',
  KONG_ADMIN_LISTEN: 'admin_listen',
  KONG_STREAM_LISTEN: 'stream_listen',
  KONG_NGINX_WORKER_PROCESSES: 'nginx_worker_processes',
  KONG_SSL_CERT: 'ssl_cert',
  KONG_SSL_CERT_KEY: 'ssl_cert_key',
  KONG_ADMIN_TOKEN: 'admin_token',
  KONG_ADMIN_TOKEN_FILE: 'admin_token_file',
  KONG_PLUGINS: 'plugins',
  KONG_TRUSTED_IPS: 'trusted_ips',
  KONG_REAL_IP_HEADER: 'real_ip_header',
  KONG_REAL_IP_RECURSIVE: 'real_ip_recursive',
  KONG_NGINX_PROXY_UNDERSCORES_IN_HEADERS: 'nginx_proxy_underscores_in_headers',
  KONG_NGINX_MAIN_WORKER_CPU_AFFINITY: 'nginx_main_worker_cpu_affinity',
  REDIS_URL: 'redis_url',
};

/**
 * Collects the start settings from flags and environment. `ssl_cert`/`ssl_cert_key` may be PEM
 * text or a file path (as in Kong); files are read with `readText`, and the result holds PEM.
 */
export async function readStartSettings(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  readText: (path: string) => Promise<string>,
): Promise<StartSettings> {
  const settings: Record<string, string | undefined> = {};
  for (const [name, key] of Object.entries(ENV)) {
    const value = env[name];
    if (value !== undefined && value !== '') settings[key] = value;
  }
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    const key = FLAGS[flag];
    if (key === undefined) throw new ConfigError(arg, 'unknown option (see signet-gateway --help)');
    const value = eq === -1 ? args[++i] : arg.slice(eq + 1);
    if (value === undefined) throw new ConfigError(flag, 'needs a value');
    settings[key] = value;
  }
  for (const key of ['ssl_cert', 'ssl_cert_key'] as const) {
    const value = settings[key];
    if (value === undefined || value.includes('-----BEGIN')) continue;
    try {
      settings[key] = await readText(value);
    } catch (err) {
      throw new ConfigError(key, `cannot read ${value}: ${(err as Error).message}`);
    }
  }
  const tokenFile = settings.admin_token_file;
  if (tokenFile !== undefined) {
    if (settings.admin_token !== undefined) throw new ConfigError('admin_token_file', 'set KONG_ADMIN_TOKEN or KONG_ADMIN_TOKEN_FILE, not both');
    try {
      settings.admin_token = (await readText(tokenFile)).trim();
    } catch (err) {
      throw new ConfigError('admin_token_file', `cannot read ${tokenFile}: ${(err as Error).message}`);
    }
  }
  const supervised = env[STOP_WITH_PARENT_ENV];
  if (supervised !== undefined && supervised !== '1') throw new ConfigError(STOP_WITH_PARENT_ENV, `expected 1 or unset, got '${supervised}'`);
  return { ...settings, supervised: supervised === '1' };
}
