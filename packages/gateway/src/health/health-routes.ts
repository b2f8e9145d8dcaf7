import { GatewayError } from '../errors.ts';
import type { Snapshot } from '../declarative/types.ts';
import { addressOf } from './health-registry.ts';
import { balancerHealthView, findTarget, findUpstream, upstreamHealthView } from './health-view.ts';
import type { NodeHealth } from './node-health.ts';

/** What the health routes need from the admin server. */
export type HealthRouteDeps = {
  /** The configuration currently serving. */
  readonly snapshot: () => Snapshot;
  readonly health: NodeHealth;
  /** This node's id, shown as `node_id`. */
  readonly nodeId: string;
};

/** A handled admin request: status and JSON body (none for 204). */
export type HealthRouteResult = { readonly status: number; readonly body?: object };

const HEALTH_PATH = /^\/upstreams\/([^/]+)\/health\/?$/;
const SET_PATH = /^\/upstreams\/([^/]+)\/targets\/([^/]+)(?:\/([^/]+))?\/(healthy|unhealthy)\/?$/;

/**
 * The admin API's health endpoints (kong/api/routes/upstreams.lua, kong/db/dao/targets.lua):
 * - GET /upstreams/{u}/health[?balancer_health=1]
 * - PUT (Kong 3.x) or POST (the spec, Kong < 3) /upstreams/{u}/targets/{t}[/{ip[:port]}]/healthy|unhealthy
 *
 * Returns undefined for a path that is not one of these, so the admin server tries its other
 * routes; throws GatewayError (404, 405, 400) for the rest.
 */
export function routeHealthRequest(deps: HealthRouteDeps, method: string, pathname: string, query: URLSearchParams): HealthRouteResult | undefined {
  const health = HEALTH_PATH.exec(pathname);
  if (health) {
    if (method !== 'GET' && method !== 'HEAD') throw new GatewayError('METHOD_NOT_ALLOWED');
    return upstreamHealth(deps, decode(health[1]!), query);
  }
  const set = SET_PATH.exec(pathname);
  if (set) {
    if (method !== 'PUT' && method !== 'POST') throw new GatewayError('METHOD_NOT_ALLOWED');
    const address = set[3] === undefined ? undefined : decode(set[3]);
    return setTargetHealth(deps, decode(set[1]!), decode(set[2]!), address, set[4] === 'healthy');
  }
  return undefined;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new GatewayError('NOT_FOUND');
  }
}

/** GET /upstreams/{u}/health: per-target health, or the balancer's with `balancer_health`. */
export function upstreamHealth(deps: HealthRouteDeps, upstreamRef: string, query: URLSearchParams): HealthRouteResult {
  const snapshot = deps.snapshot();
  const upstream = findUpstream(snapshot, upstreamRef);
  if (upstream === undefined) throw new GatewayError('NOT_FOUND');
  // kong/api/routes/upstreams.lua: `tostring(self.params.balancer_health) == "1"`, nothing else.
  const view = query.get('balancer_health') === '1'
    ? balancerHealthView(snapshot, upstream, deps.health, deps.nodeId)
    : upstreamHealthView(snapshot, upstream, deps.health, deps.nodeId);
  return { status: 200, body: view };
}

/**
 * Marks a target (all its addresses) or one of its addresses healthy or unhealthy: 204 with
 * the counters reset in every worker, and on every node sharing the health bus. 404 for an
 * unknown upstream or target (or a target of another upstream); 400 when checks are off. An
 * address the checker does not hold (weight 0, not the target's) is a silent 204, as in Kong
 * (healthcheck.lua set_target_status: "not in the list" is only a warning).
 */
export function setTargetHealth(
  deps: HealthRouteDeps,
  upstreamRef: string,
  targetRef: string,
  addressRef: string | undefined,
  healthy: boolean,
): HealthRouteResult {
  const snapshot = deps.snapshot();
  const upstream = findUpstream(snapshot, upstreamRef);
  if (upstream === undefined) throw new GatewayError('NOT_FOUND');
  const target = findTarget(snapshot, upstream, targetRef);
  if (target === undefined) throw new GatewayError('NOT_FOUND');
  if (!deps.health.checksOn(upstream.name)) {
    throw new GatewayError('NO_HEALTHCHECKER', { message: `no healthchecker found for ${upstream.name}` });
  }
  const own = addressOf(target.target).key;
  const keys = addressRef === undefined ? [own] : [addressOf(addressRef).key].filter((k) => k === own);
  if (keys.length > 0) deps.health.setStatus(upstream.name, keys, healthy);
  return { status: 204 };
}
