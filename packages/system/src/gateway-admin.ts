/** What the supervisor asks of the gateway's admin API (Kong's shapes), on loopback. */
export type GatewayAdmin = {
  /** Kong's POST /upstreams/{u}/targets/{t}/healthy|unhealthy. */
  mark(target: string, state: 'healthy' | 'unhealthy'): Promise<void>;
  /** The target's health as GET /upstreams/{u}/health shows it (HEALTHY, UNHEALTHY, ...). */
  health(target: string): Promise<string | undefined>;
  /** POST /config: the whole declarative config; the gateway keeps the old one when it refuses. */
  postConfig(yaml: string): Promise<{ ok: true } | { ok: false; status: number; message: string }>;
};

export class GatewayAdminError extends Error {}

/** The admin API at `baseUrl` (http://127.0.0.1:PORT), for the upstream `upstream`, with the operator's token if any. */
export function gatewayAdmin(baseUrl: string, upstream: string, token: string | undefined): GatewayAdmin {
  const headers: Record<string, string> = token !== undefined ? { 'kong-admin-token': token } : {};
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    return { status: res.status, json: (): unknown => (text === '' ? undefined : JSON.parse(text)) };
  };
  const u = encodeURIComponent(upstream);
  return {
    async mark(target, state) {
      const res = await call('POST', `/upstreams/${u}/targets/${encodeURIComponent(target)}/${state}`);
      if (res.status !== 204) throw new GatewayAdminError(`marking ${target} ${state}: admin API answered ${res.status}`);
    },
    async health(target) {
      const res = await call('GET', `/upstreams/${u}/health`);
      if (res.status !== 200) throw new GatewayAdminError(`reading ${upstream}'s health: admin API answered ${res.status}`);
      return (res.json() as { data: { target: string; health: string }[] }).data.find((d) => d.target === target)?.health;
    },
    async postConfig(yaml) {
      const res = await call('POST', '/config', { config: yaml });
      if (res.status === 201 || res.status === 200) return { ok: true };
      const body = res.json() as { message?: string } | undefined;
      return { ok: false, status: res.status, message: body?.message ?? `status ${res.status}` };
    },
  };
}
