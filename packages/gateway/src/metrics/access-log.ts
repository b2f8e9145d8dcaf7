import type { ProxyHooks, RequestDone } from '../proxy/proxy-hooks.ts';

/** The part of a pino logger the access log uses. */
export type AccessLogger = { info(fields: object, message: string): void };

/** One access-log record: the request id ties it to the upstream's logs (X-Kong-Request-Id). */
export function accessLogFields(d: RequestDone): object {
  return {
    request_id: d.requestId,
    client_ip: d.clientIp,
    method: d.method,
    uri: d.uri,
    status: d.status,
    source: d.source,
    service: d.service?.name ?? d.service?.id,
    route: d.route?.name ?? d.route?.id,
    upstream_addr: d.upstreamAddress,
    latencies: { kong: d.proxyLatencyMs, proxy: d.upstreamLatencyMs, request: d.totalMs },
  };
}

/** Structured JSON access logs (one pino line per request, Kong's file-log fields in spirit). */
export function accessLogHooks(log: AccessLogger): Required<Pick<ProxyHooks, 'onRequestDone'>> {
  return { onRequestDone: (d) => log.info(accessLogFields(d), 'access') };
}

/** Several hook sets as one: each hook runs in order. */
export function combineHooks(...sets: readonly ProxyHooks[]): ProxyHooks {
  const attempts = sets.flatMap((s) => (s.onAttempt ? [s.onAttempt.bind(s)] : []));
  const dones = sets.flatMap((s) => (s.onRequestDone ? [s.onRequestDone.bind(s)] : []));
  const hooks: ProxyHooks = {};
  if (attempts.length > 0) hooks.onAttempt = (...args) => { for (const f of attempts) f(...args); };
  if (dones.length > 0) hooks.onRequestDone = (d) => { for (const f of dones) f(d); };
  return hooks;
}
