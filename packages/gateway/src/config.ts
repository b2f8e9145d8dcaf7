import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { isLoopbackAddress } from './admin/listener-address.ts';
import { parsePluginsSetting } from './plugins/plugin-schemas.ts';
import { parseCpuAffinity, type CpuAffinity } from './native/cpu-affinity-setting.ts';
import { redisUrlFields, type RedisUrlFields } from './declarative/redis-url-defaults.ts';
import { IpSet, isIpOrCidr } from './proxy/ip-set.ts';
import { DEFAULT_REAL_IP, type RealIpSettings } from './proxy/real-ip.ts';

/** One listener of Kong's `*_listen` settings. */
export type ListenAddress = {
  readonly host: string;
  readonly port: number;
  readonly ssl: boolean;
  /** Kong's `http2` flag: HTTP/2 offered by ALPN to every client of this TLS listener. */
  readonly http2?: boolean;
  /** Kong's `reuseport` flag: each process binds its own socket (SO_REUSEPORT); src/listen/. */
  readonly reuseport?: boolean;
  /** Kong's `backlog=N` flag: the accept queue's length (node's and nginx's default 511). */
  readonly backlog?: number;
  /** Kong's `ipv6only=on|off` flag (an IPv6 address only): IPV6_V6ONLY; absent, node's dual stack. */
  readonly ipv6only?: boolean;
  /** Kong's `so_keepalive` flag (on, or idle:interval:count): TCP keep-alive probes on accepted connections. */
  readonly keepalive?: ListenKeepalive;
  /** Kong's `deferred` flag: TCP_DEFER_ACCEPT on the listening socket. */
  readonly deferred?: boolean;
};

/** nginx's so_keepalive: each part absent keeps the system's value (seconds; a count of probes). */
export type ListenKeepalive = { readonly idleS?: number; readonly intervalS?: number; readonly count?: number };

/** The gateway's process configuration (the kong.conf equivalent), validated once at start. */
export type GatewayConfig = {
  /** Path of kong.yml; undefined → start with no entities. */
  readonly declarativeConfig: string | undefined;
  /** Proxy listeners (Kong proxy_listen). */
  readonly proxyListen: readonly ListenAddress[];
  /** Admin API listeners (Kong admin_listen); empty when "off". */
  readonly adminListen: readonly ListenAddress[];
  /** Stream (tcp/tls/tls_passthrough) listeners (Kong stream_listen); empty or absent when "off" (the default). */
  readonly streamListen?: readonly ListenAddress[];
  /** Worker processes (Kong nginx_worker_processes); 1 = no cluster. */
  readonly workers: number;
  /** The node default certificate (Kong ssl_cert / ssl_cert_key), PEM; undefined → generated at start. */
  readonly sslCert: { readonly certPem: string; readonly keyPem: string } | undefined;
  /** How long stop waits for in-flight requests before closing sockets. */
  readonly shutdownGraceMs: number;
  /** The admin API token (Kong-Admin-Token header); required when admin_listen is not loopback. */
  readonly adminToken?: string | undefined;
  /** The plugins a configuration may use (Kong's `plugins`, default `bundled`); absent = bundled. */
  readonly plugins?: ReadonlySet<string>;
  /** Who the client is (Kong's trusted_ips, real_ip_header, real_ip_recursive); absent = Kong's defaults. */
  readonly realIp?: RealIpSettings;
  /** REDIS_URL, read: the Redis of redis-policy plugins that name none; absent = they must name one (Kong). */
  readonly redis?: RedisUrlFields;
  /**
   * Kong's nginx_proxy_underscores_in_headers: false ignores request headers whose names hold
   * `_` (src/proxy/underscore-headers.ts); absent = on, as Kong's nginx template sets it.
   */
  readonly underscoresInHeaders?: false;
  /** Each worker bound to CPUs (nginx_main_worker_cpu_affinity); absent, the scheduler places them. */
  readonly workerCpuAffinity?: CpuAffinity;
};

/** The raw settings, by Kong's names, as the cli layer collected them from flags and env. */
export type GatewaySettings = {
  readonly declarative_config?: string | undefined;
  readonly proxy_listen?: string | undefined;
  readonly admin_listen?: string | undefined;
  readonly stream_listen?: string | undefined;
  readonly nginx_worker_processes?: string | undefined;
  /** PEM text (the cli layer reads files). */
  readonly ssl_cert?: string | undefined;
  readonly ssl_cert_key?: string | undefined;
  /** The admin token's text (the cli layer reads KONG_ADMIN_TOKEN_FILE). */
  readonly admin_token?: string | undefined;
  /** Kong's `plugins`: "bundled", "off", or a comma list of names (may include "bundled"). */
  readonly plugins?: string | undefined;
  /** Kong's trusted_ips: comma list of addresses/CIDRs (`0.0.0.0/0,::/0` = all); default none. */
  readonly trusted_ips?: string | undefined;
  /** Kong's real_ip_header (default X-Real-IP). */
  readonly real_ip_header?: string | undefined;
  /** Kong's real_ip_recursive: on/off (default off). */
  readonly real_ip_recursive?: string | undefined;
  /** REDIS_URL: operator health events across nodes, and the default Redis of redis-policy plugins. */
  readonly redis_url?: string | undefined;
  /** Kong's injected nginx directive for the proxy server: on/off (default on, Kong's template). */
  readonly nginx_proxy_underscores_in_headers?: string | undefined;
  /** Kong's nginx_main_worker_cpu_affinity (nginx's worker_cpu_affinity): unset, no binding. */
  readonly nginx_main_worker_cpu_affinity?: string | undefined;
};

/** A bad setting: the message names it (Kong spelling), so start stops with a clear line. */
export class ConfigError extends Error {
  readonly setting: string;
  constructor(setting: string, message: string) {
    super(`${setting}: ${message}`);
    this.setting = setting;
    this.name = 'ConfigError';
  }
}

// Kong's defaults (kong.conf.default), without the 0.0.0.0 exposure of the admin API.
const DEFAULTS = {
  proxy_listen: '0.0.0.0:8000, 0.0.0.0:8443 http2 ssl',
  admin_listen: '127.0.0.1:8001',
  stream_listen: 'off',
  plugins: 'bundled',
};

// nginx's time syntax for so_keepalive's idle and interval parts: seconds, or with a unit.
const TIME_UNITS: Readonly<Record<string, number>> = { '': 1, s: 1, m: 60, h: 3600, d: 86_400 };

/** `so_keepalive=on|off|[idle]:[interval]:[count]` (nginx's listen directive); undefined for off. */
function parseKeepalive(flag: string, value: string, setting: string): ListenKeepalive | undefined {
  if (value === 'on') return {};
  if (value === 'off') return undefined;
  const parts = value.split(':');
  if (parts.length !== 3) throw new ConfigError(setting, `'${flag}': expected on, off or idle:interval:count (e.g. so_keepalive=30m::10)`);
  const time = (part: string, name: string): number | undefined => {
    if (part === '') return undefined;
    const m = /^(\d{1,9})(s|m|h|d)?$/.exec(part);
    const seconds = m === null ? NaN : Number(m[1]) * TIME_UNITS[m[2] ?? '']!;
    // Linux takes 1..32767 seconds for both.
    if (!(seconds >= 1 && seconds <= 32_767)) throw new ConfigError(setting, `'${flag}': the ${name} must be a time between 1s and 32767s`);
    return seconds;
  };
  const idleS = time(parts[0]!, 'idle time');
  const intervalS = time(parts[1]!, 'interval');
  let count: number | undefined;
  if (parts[2] !== '') {
    count = /^\d{1,3}$/.test(parts[2]!) ? Number(parts[2]) : NaN;
    if (!(count >= 1 && count <= 127)) throw new ConfigError(setting, `'${flag}': the count must be between 1 and 127`);
  }
  return { ...(idleS !== undefined ? { idleS } : {}), ...(intervalS !== undefined ? { intervalS } : {}), ...(count !== undefined ? { count } : {}) };
}

/** Parses Kong's `*_listen` syntax: "host:port [ssl] [flags], …" or "off". */
export function parseListen(value: string, setting: string): ListenAddress[] {
  const trimmed = value.trim();
  if (trimmed === 'off') return [];
  const out: ListenAddress[] = [];
  for (const part of trimmed.split(',')) {
    const [address = '', ...flags] = part.trim().split(/\s+/);
    const m = /^(\[[0-9a-fA-F:.]+\]|[^\s:[\]]+):(\d{1,5})$/.exec(address);
    if (m === null) throw new ConfigError(setting, `invalid listen address '${address}' (expected host:port)`);
    const port = Number(m[2]);
    if (port > 65535) throw new ConfigError(setting, `port ${port} is not between 0 and 65535`);
    const host = m[1]!.startsWith('[') ? m[1]!.slice(1, -1) : m[1]!;
    let ssl = false;
    let http2 = false;
    let reuseport = false;
    let backlog: number | undefined;
    let ipv6only: boolean | undefined;
    let keepalive: ListenKeepalive | undefined;
    let deferred = false;
    for (const flag of flags) {
      const b = /^backlog=(\d+)$/.exec(flag);
      const v6 = /^ipv6only=(on|off)$/.exec(flag);
      const ka = /^so_keepalive=(.*)$/.exec(flag);
      if (flag === 'ssl') ssl = true;
      else if (flag === 'http2') http2 = true;
      else if (flag === 'reuseport') reuseport = true;
      else if (flag === 'deferred') deferred = true;
      // nginx's `bind`: a socket of its own for this address; every listen address has one here.
      else if (flag === 'bind') continue;
      else if (v6 !== null) {
        // As nginx, only an IPv6 address has the option (a name or an IPv4 address is refused).
        if (isIP(host) !== 6) throw new ConfigError(setting, `'${address} ${flag}': ipv6only applies to an IPv6 address ([::]:port)`);
        ipv6only = v6[1] === 'on';
      } else if (ka !== null) keepalive = parseKeepalive(flag, ka[1]!, setting);
      else if (b !== null) {
        backlog = Number(b[1]);
        if (backlog < 1 || backlog > 2 ** 31 - 1) throw new ConfigError(setting, `'${flag}': the backlog must be between 1 and 2147483647`);
      } else throw new ConfigError(setting, `unsupported listen flag '${flag}'`);
    }
    // Without TLS, nginx's http2 listener speaks h2c with prior knowledge only, which would turn
    // every HTTP/1.1 client away; h2c is served to grpc routes without the flag (docs/gateway-config.md).
    if (http2 && !ssl) throw new ConfigError(setting, `'${address} http2': the http2 flag needs 'ssl' here (HTTP/2 is offered by ALPN on TLS listeners; h2c is served to grpc routes without it)`);
    if (http2 && setting !== 'proxy_listen') throw new ConfigError(setting, `unsupported listen flag 'http2' (only proxy_listen serves HTTP/2)`);
    out.push({
      host: host === '*' ? '0.0.0.0' : host, port, ssl, ...(http2 ? { http2 } : {}), ...(reuseport ? { reuseport } : {}), ...(backlog !== undefined ? { backlog } : {}),
      ...(ipv6only !== undefined ? { ipv6only } : {}), ...(keepalive !== undefined ? { keepalive } : {}), ...(deferred ? { deferred } : {}),
    });
  }
  if (out.length === 0) throw new ConfigError(setting, 'no listen address');
  return out;
}

/** Why `deferred` cannot be set on a listener whose socket is node:cluster's primary's (round-robin, no `reuseport`). */
export function deferredNeedsOwnSocket(a: ListenAddress): string {
  const host = a.host.includes(':') ? `[${a.host}]` : a.host;
  return `'${host}:${a.port} deferred': with node:cluster's round-robin the listening socket is the primary's; add 'reuseport' so each worker has its own`;
}

const isLoopbackHost = (host: string): boolean => host === 'localhost' || isLoopbackAddress(host);

/** Validates the settings into a GatewayConfig, or throws ConfigError naming the first bad one. */
export function buildGatewayConfig(settings: GatewaySettings): GatewayConfig {
  const proxyListen = parseListen(settings.proxy_listen ?? DEFAULTS.proxy_listen, 'proxy_listen');
  if (proxyListen.length === 0) throw new ConfigError('proxy_listen', 'the proxy cannot be "off"');
  const adminListen = parseListen(settings.admin_listen ?? DEFAULTS.admin_listen, 'admin_listen');
  const streamListen = parseListen(settings.stream_listen ?? DEFAULTS.stream_listen, 'stream_listen');
  let workers = availableParallelism();
  const w = settings.nginx_worker_processes;
  if (w !== undefined && w !== 'auto') {
    if (!/^\d+$/.test(w) || Number(w) < 1 || Number(w) > 256) {
      throw new ConfigError('nginx_worker_processes', `expected "auto" or an integer between 1 and 256, got '${w}'`);
    }
    workers = Number(w);
  }
  for (const [setting, listen] of [['proxy_listen', proxyListen], ['stream_listen', streamListen]] as const) {
    // TCP_DEFER_ACCEPT is set on a listening socket; with node:cluster's round-robin that socket is
    // the primary's, which the workers never touch (src/listen/listen-on.ts).
    const deferred = listen.find((a) => a.deferred === true && a.reuseport !== true);
    if (deferred !== undefined && workers > 1 && process.env.NODE_CLUSTER_SCHED_POLICY !== 'none') throw new ConfigError(setting, deferredNeedsOwnSocket(deferred));
    // Each worker binds its own reuseport socket: on port 0 each would get another port.
    const ephemeral = listen.find((a) => a.reuseport === true && a.port === 0);
    if (ephemeral !== undefined && workers > 1) {
      throw new ConfigError(setting, `'${ephemeral.host}:0 reuseport': with ${workers} workers each would listen on a port of its own; give a port, or drop reuseport`);
    }
  }
  const { ssl_cert: cert, ssl_cert_key: key } = settings;
  if ((cert === undefined) !== (key === undefined)) {
    throw new ConfigError(cert === undefined ? 'ssl_cert' : 'ssl_cert_key', 'ssl_cert and ssl_cert_key must be set together');
  }
  if (cert !== undefined && !cert.includes('-----BEGIN CERTIFICATE-----')) throw new ConfigError('ssl_cert', 'not a PEM certificate');
  if (key !== undefined && !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key)) throw new ConfigError('ssl_cert_key', 'not a PEM private key');
  const adminToken = settings.admin_token?.trim();
  if (adminToken !== undefined && (adminToken.length < 16 || /\s/.test(adminToken))) {
    throw new ConfigError('admin_token', 'must be at least 16 characters without spaces (e.g. openssl rand -hex 32)');
  }
  // The admin API serves plain HTTP: an `ssl` flag would be a silent downgrade.
  const tls = adminListen.find((a) => a.ssl);
  if (tls !== undefined) throw new ConfigError('admin_listen', `${tls.host}:${tls.port}: the admin API serves plain HTTP only; remove 'ssl' (keep it on loopback, or put a TLS proxy in front)`);
  const exposed = adminListen.find((a) => !isLoopbackHost(a.host));
  if (exposed !== undefined && adminToken === undefined) {
    throw new ConfigError('admin_listen', `${exposed.host}:${exposed.port} is not a loopback address: anyone who reaches it could replace the configuration; set KONG_ADMIN_TOKEN or KONG_ADMIN_TOKEN_FILE, or listen on 127.0.0.1`);
  }
  let plugins: ReadonlySet<string>;
  try {
    plugins = parsePluginsSetting(settings.plugins ?? DEFAULTS.plugins);
  } catch (e) {
    throw new ConfigError('plugins', (e as Error).message);
  }
  const realIp = buildRealIp(settings);
  let redis: RedisUrlFields | undefined;
  if (settings.redis_url !== undefined) {
    try {
      redis = redisUrlFields(settings.redis_url);
    } catch (e) {
      throw new ConfigError('REDIS_URL', (e as Error).message);
    }
  }
  const underscores = settings.nginx_proxy_underscores_in_headers;
  if (underscores !== undefined && underscores !== 'on' && underscores !== 'off') {
    throw new ConfigError('nginx_proxy_underscores_in_headers', `expected "on" or "off", got '${underscores}'`);
  }
  let workerCpuAffinity: CpuAffinity | undefined;
  if (settings.nginx_main_worker_cpu_affinity !== undefined) {
    try {
      workerCpuAffinity = parseCpuAffinity(settings.nginx_main_worker_cpu_affinity);
    } catch (e) {
      throw new ConfigError('nginx_main_worker_cpu_affinity', (e as Error).message);
    }
  }
  return Object.freeze({
    declarativeConfig: settings.declarative_config,
    plugins,
    proxyListen,
    adminListen,
    streamListen,
    workers,
    sslCert: cert !== undefined && key !== undefined ? { certPem: cert, keyPem: key } : undefined,
    shutdownGraceMs: 10_000,
    ...(adminToken !== undefined ? { adminToken } : {}),
    ...(realIp !== undefined ? { realIp } : {}),
    ...(redis !== undefined ? { redis } : {}),
    ...(underscores === 'off' ? { underscoresInHeaders: false as const } : {}),
    ...(workerCpuAffinity !== undefined ? { workerCpuAffinity } : {}),
  });
}

// Kong's real_ip settings (kong/conf_loader/parse.lua checks trusted_ips), undefined when all are defaults.
function buildRealIp(settings: GatewaySettings): RealIpSettings | undefined {
  const { trusted_ips: trustedIps, real_ip_header: header, real_ip_recursive: recursive } = settings;
  if (trustedIps === undefined && header === undefined && recursive === undefined) return undefined;
  let trusted: IpSet | undefined;
  const entries = (trustedIps ?? '').split(',').map((e) => e.trim()).filter((e) => e !== '' && e !== 'NONE');
  for (const entry of entries) {
    if (entry === 'unix:') throw new ConfigError('trusted_ips', "'unix:' is not supported: this gateway listens on TCP only");
    if (!isIpOrCidr(entry)) {
      throw new ConfigError('trusted_ips', `trusted_ips must be a comma separated list in the form of IPv4 or IPv6 address or CIDR block, got '${entry}'`);
    }
  }
  if (entries.length > 0) trusted = new IpSet(entries);
  const name = (header ?? 'X-Real-IP').trim();
  if (name.toLowerCase() === 'proxy_protocol') throw new ConfigError('real_ip_header', "'proxy_protocol' is not supported: this gateway does not read the PROXY protocol");
  if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) throw new ConfigError('real_ip_header', `not a header name: '${name}'`);
  const flag = (recursive ?? 'off').trim();
  if (flag !== 'on' && flag !== 'off') throw new ConfigError('real_ip_recursive', `expected "on" or "off", got '${flag}'`);
  return { ...DEFAULT_REAL_IP, trusted, header: name.toLowerCase(), recursive: flag === 'on' };
}
