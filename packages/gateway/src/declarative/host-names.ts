// Host, IP and port parsing as Kong does it (kong/tools/ip.lua: hostname_type, normalize_ipv4,
// normalize_ipv6, check_hostname, normalize_ip, format_host), plus the typedefs.lua validators
// built on it. The type of a string is decided by exclusion, as in Kong, so error texts match.

/** A parsed host: normalised address (or name as written), its kind, and the port if any. */
export type ParsedHost = { readonly type: 'ipv4' | 'ipv6' | 'name'; readonly host: string; readonly port?: number };

type Parsed = { ok: true; value: ParsedHost } | { ok: false; error: string };

/** ipv6 if it has more than one colon, ipv4 if only digits and dots remain, else name. */
export function hostnameType(name: string): 'ipv4' | 'ipv6' | 'name' {
  const colons = name.split(':').length - 1;
  if (colons > 1) return 'ipv6';
  if (/^[\d.]+$/.test(name.replace(/:/g, ''))) return 'ipv4';
  return 'name';
}

function normalizeIpv4(address: string): Parsed {
  const m = address.includes(':')
    ? /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3}):(\d+)$/.exec(address)
    : /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (m === null) return { ok: false, error: `invalid ipv4 address: ${address}` };
  const octets = [m[1], m[2], m[3], m[4]].map(Number);
  if (octets.some((o) => o > 255)) return { ok: false, error: `invalid ipv4 address: ${address}` };
  const port = m[5] === undefined ? undefined : Number(m[5]);
  if (port !== undefined && port > 65535) return { ok: false, error: 'invalid port number' };
  return { ok: true, value: { type: 'ipv4', host: octets.join('.'), ...(port === undefined ? {} : { port }) } };
}

function normalizeIpv6(address: string): Parsed {
  let check: string;
  let port: number | undefined;
  const bracketed = /^\[([^\]]*)\](.*)$/.exec(address);
  if (bracketed !== null) {
    check = bracketed[1] ?? '';
    const rest = bracketed[2] ?? '';
    if (rest !== '') {
      const p = /^:(\d*)$/.exec(rest);
      if (p === null) return { ok: false, error: 'invalid ipv6 address' };
      port = Number(p[1]);
      if (port > 65535) return { ok: false, error: 'invalid port number' };
    }
  } else {
    check = address;
  }
  if (check.startsWith(':')) check = '0' + check;
  if (check.endsWith(':')) check = check + '0';
  if (check.includes('::')) {
    const count = check.split(':').length - 1;
    check = check.replace('::', ':' + '0:'.repeat(Math.max(0, 8 - count)));
  }
  const groups = check.split(':');
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) {
    return { ok: false, error: `invalid ipv6 address: ${address}` };
  }
  const host = groups.map((g) => g.padStart(4, '0')).join(':').toLowerCase();
  return { ok: true, value: { type: 'ipv6', host, ...(port === undefined ? {} : { port }) } };
}

function checkHostname(address: string): Parsed {
  let name = address;
  let port: number | undefined;
  const p = /:(\d+)$/.exec(address);
  if (p !== null && p[1] !== undefined) {
    name = name.slice(0, -(p[1].length + 1));
    port = Number(p[1]);
    if (port > 65535) return { ok: false, error: 'invalid port number' };
  }
  const invalid: Parsed = { ok: false, error: `invalid hostname: ${address}` };
  if (!/^[\dA-Za-z\-._]+$/.test(name)) return invalid;
  // Reject segments ending in a dash and empty segments (a trailing dot, FQDN style, is fine).
  const segments = name.split('.');
  for (const [i, segment] of segments.entries()) {
    if (segment.endsWith('-') || (segment === '' && i !== segments.length - 1)) return invalid;
  }
  return { ok: true, value: { type: 'name', host: name, ...(port === undefined ? {} : { port }) } };
}

/** kong/tools/ip.lua normalize_ip: ipv4[:port], ipv6, [ipv6][:port], name[:port]. */
export function normalizeIp(address: string): Parsed {
  const type = hostnameType(address);
  if (type === 'ipv4') return normalizeIpv4(address);
  if (type === 'ipv6') return normalizeIpv6(address);
  return checkHostname(address);
}

/** kong/tools/ip.lua format_host: ipv6 bracketed, `:port` appended (the default when absent). */
export function formatHost(parsed: ParsedHost, defaultPort?: number): string {
  const port = parsed.port ?? defaultPort;
  const host = parsed.type === 'ipv6' ? `[${parsed.host}]` : parsed.host;
  return port === undefined ? host : `${host}:${port}`;
}

/** A validator's verdict: undefined when valid, else Kong's error text. */
export type Verdict = string | undefined;

/** typedefs.host: a hostname or IP without a port. */
export function validateHost(host: string): Verdict {
  const r = normalizeIp(host);
  if (!r.ok) return r.error === 'invalid port number' ? 'must not have a port' : `invalid value: ${host}`;
  return r.value.port === undefined ? undefined : 'must not have a port';
}

/** typedefs.host_with_optional_port. */
export function validateHostWithOptionalPort(host: string): Verdict {
  const r = normalizeIp(host);
  return r.ok ? undefined : r.error;
}

/** typedefs.sni: a hostname, not an IP, no port. */
export function validateSni(host: string): Verdict {
  const r = normalizeIp(host);
  if (!r.ok) return r.error === 'invalid port number' ? 'must not have a port' : `invalid value: ${host}`;
  if (r.value.type !== 'name') return 'must not be an IP';
  return r.value.port === undefined ? undefined : 'must not have a port';
}

/** typedefs.wildcard_host: like an sni, with at most one `*` as the leftmost or rightmost character. */
export function validateWildcardHost(host: string): Verdict {
  let mock = host;
  const idx = host.indexOf('*');
  if (idx !== -1) {
    if (idx !== 0 && idx !== host.length - 1) return 'wildcard must be leftmost or rightmost character';
    if (host.split('*').length > 2) return 'only one wildcard must be specified';
    mock = host.replace('*', 'wildcard');
  }
  const r = normalizeIp(mock);
  if (!r.ok) return r.error === 'invalid port number' ? 'must not have a port' : `invalid value: ${mock}`;
  if (r.value.type !== 'name') return 'must not be an IP';
  return r.value.port === undefined ? undefined : 'must not have a port';
}
