// nginx's underscores_in_headers off (its default; Kong's template turns it on, and
// nginx_proxy_underscores_in_headers=off turns it off again for the proxy): with
// ignore_invalid_headers on, a request header whose name holds `_` is ignored, not refused,
// before routing and plugins read the request. CGI and WSGI upstreams fold `_` into `-`, so
// X_Consumer_Username would pass there for the X-Consumer-Username a plugin set.

/** The raw name/value pairs without those whose name holds `_`; the same array when none does (the usual case). */
export function withoutUnderscoreNames(raw: string[]): string[] {
  let k = 0;
  while (k < raw.length && !raw[k]!.includes('_')) k += 2;
  if (k >= raw.length) return raw;
  const out = raw.slice(0, k);
  for (k += 2; k < raw.length; k += 2) if (!raw[k]!.includes('_')) out.push(raw[k]!, raw[k + 1]!);
  return out;
}
