import type { Snapshot, Target, Upstream } from '../declarative/types.ts';
import { balancerHealthy } from './balancer-healthy.ts';
import { addressOf } from './health-registry.ts';
import { isUp, type InternalHealth } from './target-state.ts';

/** Health as the admin API shows it (kong/db/dao/targets.lua, healthcheckers.lua). */
export type HealthLabel = 'HEALTHY' | 'UNHEALTHY' | 'HEALTHCHECKS_OFF' | 'DNS_ERROR';

/** What the views read about live health: per address, its state, or undefined when unchecked. */
export type HealthReader = {
  /** True when the upstream has a health checker (checks on). */
  checksOn(upstreamName: string): boolean;
  /** The internal state of a checked address; undefined for unchecked ones (weight 0). */
  addressHealth(upstreamName: string, key: string): InternalHealth | undefined;
};

type WeightView = { total: number; available: number; unavailable: number };

/** An upstream by id or name, as Kong's admin endpoints accept either. */
export function findUpstream(snapshot: Snapshot, ref: string): Upstream | undefined {
  return snapshot.upstreams.find((u) => u.id === ref) ?? snapshot.upstreams.find((u) => u.name === ref);
}

/**
 * The targets of an upstream as Kong lists them (dao/targets.lua page_for_upstream): one per
 * distinct `target` string, the newest kept, newest first (created_at, then id).
 */
export function upstreamTargets(snapshot: Snapshot, upstream: Upstream): Target[] {
  const byString = new Map<string, Target>();
  for (const t of snapshot.targets) {
    if (t.upstream.id !== upstream.id) continue;
    const seen = byString.get(t.target);
    if (seen === undefined || newer(t, seen)) byString.set(t.target, t);
  }
  return [...byString.values()].sort((a, b) => (newer(a, b) ? -1 : newer(b, a) ? 1 : 0));
}

function newer(a: Target, b: Target): boolean {
  return a.created_at !== b.created_at ? a.created_at > b.created_at : a.id > b.id;
}

/**
 * A target of `upstream` named by id, by its `target` string as written, or by its normalised
 * `host:port` (the port defaulting to 8000, kong/db/dao/targets.lua format_target). Undefined → 404.
 */
export function findTarget(snapshot: Snapshot, upstream: Upstream, ref: string): Target | undefined {
  const targets = upstreamTargets(snapshot, upstream);
  const key = addressOf(ref).key;
  return (
    targets.find((t) => t.id === ref) ??
    targets.find((t) => t.target === ref) ??
    targets.find((t) => addressOf(t.target).key === key)
  );
}

type AddressStatus = { key: string; host: string; port: number; weight: number; up: boolean; checked: boolean };

function addressStatus(reader: HealthReader, upstream: Upstream, target: Target): AddressStatus {
  const { key, host, port } = addressOf(target.target);
  const health = reader.addressHealth(upstream.name, key);
  return { key, host, port, weight: target.weight, up: health === undefined || isUp(health), checked: health !== undefined };
}

function weightOf(addresses: readonly AddressStatus[]): WeightView {
  let total = 0;
  let available = 0;
  for (const a of addresses) {
    total += a.weight;
    if (a.up) available += a.weight;
  }
  return { total, available, unavailable: total - available };
}

/**
 * `GET /upstreams/{u}/health` (kong/api/routes/upstreams.lua, dao/targets.lua).
 * A target is HEALTHCHECKS_OFF when checks are off or its weight is 0, else HEALTHY when any
 * address is up. Targets name one address each here (no DNS split), so DNS_ERROR never shows.
 */
export function upstreamHealthView(snapshot: Snapshot, upstream: Upstream, reader: HealthReader, nodeId: string): object {
  const on = reader.checksOn(upstream.name);
  const data = upstreamTargets(snapshot, upstream).map((t) => {
    const a = addressStatus(reader, upstream, t);
    const off = !on || t.weight === 0 || !a.checked;
    const label: HealthLabel = off ? 'HEALTHCHECKS_OFF' : a.up ? 'HEALTHY' : 'UNHEALTHY';
    return {
      id: t.id,
      created_at: t.created_at,
      updated_at: t.updated_at,
      upstream: { id: upstream.id },
      target: t.target,
      weight: t.weight,
      tags: t.tags,
      health: label,
      data: {
        host: a.host,
        port: a.port,
        dns: 'A',
        nodeWeight: t.weight,
        weight: weightOf([a]),
        addresses: [{ ip: a.host, port: a.port, weight: a.weight, health: label }],
      },
    };
  });
  return { data, next: null, node_id: nodeId };
}

/**
 * `GET /upstreams/{u}/health?balancer_health=1`: the balancer's own view. `balancer_health` is
 * always the real state (threshold, strict); `health` says HEALTHCHECKS_OFF when checks are off.
 * Hosts are listed in balancer order (file order), weight-0 targets included.
 */
export function balancerHealthView(snapshot: Snapshot, upstream: Upstream, reader: HealthReader, nodeId: string): object {
  const claimed = new Set<string>();
  const hosts: AddressStatus[] = [];
  for (const t of snapshot.targets) {
    if (t.upstream.id !== upstream.id) continue;
    const a = addressStatus(reader, upstream, t);
    if (claimed.has(a.key)) continue;
    claimed.add(a.key);
    hosts.push(a);
  }
  const weight = weightOf(hosts);
  const healthy = balancerHealthy(weight.total, weight.unavailable, upstream.healthchecks.threshold);
  const balancer: HealthLabel = healthy ? 'HEALTHY' : 'UNHEALTHY';
  return {
    data: {
      health: reader.checksOn(upstream.name) ? balancer : 'HEALTHCHECKS_OFF',
      balancer_health: balancer,
      id: upstream.id,
      details: {
        healthy,
        weight,
        hosts: hosts.map((a) => ({
          host: a.host,
          port: a.port,
          dns: 'A',
          nodeWeight: a.weight,
          weight: weightOf([a]),
          addresses: [{ ip: a.host, port: a.port, weight: a.weight, healthy: a.up }],
        })),
      },
    },
    next: null,
    node_id: nodeId,
  };
}
