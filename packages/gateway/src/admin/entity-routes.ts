// The read-only entity endpoints of Kong's admin API in DB-less mode (kong.md §5.1), and the
// refusal of every write (kong/db/strategies/off/init.lua, kong.md §5.2).
import type { Certificate, Route, Service, Snapshot, Sni, Target, Upstream } from '../declarative/index.ts';
import { formatTarget, validateEntity } from '../declarative/index.ts';
import { GatewayError } from '../errors.ts';
import type { AdminResult } from './admin-types.ts';
import { paginate } from './paginate.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ok = (body: object): AdminResult => ({ status: 200, body });
const notFound = (): never => {
  throw new GatewayError('NOT_FOUND');
};

// Kong's endpoints accept a primary key (uuid) or the endpoint key (name).
function byIdOrName<T extends { id: string; name: string | null }>(list: readonly T[], ref: string): T | undefined {
  return UUID.test(ref) ? list.find((e) => e.id === ref) : list.find((e) => e.name === ref);
}

/** A target as the Admin API shows it: the string normalised (default port 8000). */
export function targetView(target: Target): Target {
  return { ...target, target: formatTarget(target.target) };
}

// dao/targets.lua page_for_upstream: newest first, one per distinct target string.
function activeTargets(snapshot: Snapshot, upstream: Upstream): Target[] {
  const seen = new Set<string>();
  const out: Target[] = [];
  const own = snapshot.targets.filter((t) => t.upstream.id === upstream.id);
  for (let i = own.length - 1; i >= 0; i--) {
    const t = own[i] as Target;
    if (seen.has(t.target)) continue;
    seen.add(t.target);
    out.push(targetView(t));
  }
  return out;
}

function findTarget(snapshot: Snapshot, upstream: Upstream, ref: string): Target | undefined {
  const own = snapshot.targets.filter((t) => t.upstream.id === upstream.id);
  if (UUID.test(ref)) return own.find((t) => t.id === ref);
  let wanted: string;
  try {
    wanted = formatTarget(ref);
  } catch {
    return undefined;
  }
  return [...own].reverse().find((t) => formatTarget(t.target) === wanted);
}

/** GET /certificates adds the sorted names of the certificate's SNIs. */
function certificateView(snapshot: Snapshot, certificate: Certificate): object {
  const snis = snapshot.snis.filter((s) => s.certificate.id === certificate.id).map((s) => s.name).sort();
  return { ...certificate, snis };
}

function findCertificate(snapshot: Snapshot, ref: string): Certificate | undefined {
  if (UUID.test(ref)) return snapshot.certificates.find((c) => c.id === ref);
  const sni = snapshot.snis.find((s) => s.name === ref);
  return sni === undefined ? undefined : snapshot.certificates.find((c) => c.id === sni.certificate.id);
}

type Handler = (snapshot: Snapshot, params: readonly string[], path: string, query: URLSearchParams) => AdminResult;

type EntityRoute = {
  readonly pattern: RegExp;
  /** The entity a write would touch, for the DB-less refusal text. */
  readonly entity: string;
  /** Collection (POST creates) or single entity (PUT/PATCH/DELETE). */
  readonly kind: 'collection' | 'entity';
  /** A collection under a parent (`/services/{s}/routes`): the foreign key the URL fills. */
  readonly parentField?: string;
  readonly get: Handler;
  /** For PATCH/DELETE: does the addressed entity exist? (Kong reads before writing.) */
  readonly exists?: (snapshot: Snapshot, params: readonly string[]) => boolean;
};

const seg = '([^/]+)';
const route = (path: string): RegExp => new RegExp(`^${path.replace(/\{\}/g, seg)}/?$`);

const getService = (s: Snapshot, ref: string): Service => byIdOrName(s.services, ref) ?? notFound();
const getRoute = (s: Snapshot, ref: string): Route => byIdOrName(s.routes, ref) ?? notFound();
const getUpstream = (s: Snapshot, ref: string): Upstream => byIdOrName(s.upstreams, ref) ?? notFound();
const getSni = (s: Snapshot, ref: string): Sni => byIdOrName(s.snis, ref) ?? notFound();
const getCertificate = (s: Snapshot, ref: string): Certificate => findCertificate(s, ref) ?? notFound();
const p = (params: readonly string[], i: number): string => params[i] ?? '';

const ROUTES: readonly EntityRoute[] = [
  { pattern: route('/services'), entity: 'services', kind: 'collection', get: (s, _, path, q) => ok(paginate(s.services, path, q)) },
  {
    pattern: route('/services/{}'), entity: 'services', kind: 'entity',
    get: (s, a) => ok(getService(s, p(a, 0))),
    exists: (s, a) => byIdOrName(s.services, p(a, 0)) !== undefined,
  },
  {
    pattern: route('/services/{}/routes'), entity: 'routes', kind: 'collection', parentField: 'service',
    get: (s, a, path, q) => {
      const service = getService(s, p(a, 0));
      return ok(paginate(s.routes.filter((r) => r.service?.id === service.id), path, q));
    },
  },
  { pattern: route('/routes'), entity: 'routes', kind: 'collection', get: (s, _, path, q) => ok(paginate(s.routes, path, q)) },
  {
    pattern: route('/routes/{}'), entity: 'routes', kind: 'entity',
    get: (s, a) => ok(getRoute(s, p(a, 0))),
    exists: (s, a) => byIdOrName(s.routes, p(a, 0)) !== undefined,
  },
  {
    pattern: route('/routes/{}/service'), entity: 'services', kind: 'entity',
    get: (s, a) => {
      const r = getRoute(s, p(a, 0));
      return ok(s.services.find((svc) => svc.id === r.service?.id) ?? notFound());
    },
  },
  { pattern: route('/upstreams'), entity: 'upstreams', kind: 'collection', get: (s, _, path, q) => ok(paginate(s.upstreams, path, q)) },
  {
    pattern: route('/upstreams/{}'), entity: 'upstreams', kind: 'entity',
    get: (s, a) => ok(getUpstream(s, p(a, 0))),
    exists: (s, a) => byIdOrName(s.upstreams, p(a, 0)) !== undefined,
  },
  {
    pattern: route('/upstreams/{}/targets'), entity: 'targets', kind: 'collection', parentField: 'upstream',
    get: (s, a, path, q) => ok(paginate(activeTargets(s, getUpstream(s, p(a, 0))), path, q)),
  },
  {
    pattern: route('/upstreams/{}/targets/all'), entity: 'targets', kind: 'collection',
    get: (s, a, path, q) => {
      const upstream = getUpstream(s, p(a, 0));
      return ok(paginate(s.targets.filter((t) => t.upstream.id === upstream.id).map(targetView), path, q));
    },
  },
  {
    pattern: route('/upstreams/{}/targets/{}'), entity: 'targets', kind: 'entity',
    get: (s, a) => {
      const target = findTarget(s, getUpstream(s, p(a, 0)), p(a, 1));
      return ok(target === undefined ? notFound() : targetView(target));
    },
    exists: (s, a) => {
      const upstream = byIdOrName(s.upstreams, p(a, 0));
      return upstream !== undefined && findTarget(s, upstream, p(a, 1)) !== undefined;
    },
  },
  {
    pattern: route('/certificates'), entity: 'certificates', kind: 'collection',
    get: (s, _, path, q) => ok(paginate(s.certificates.map((c) => certificateView(s, c)), path, q)),
  },
  {
    pattern: route('/certificates/{}'), entity: 'certificates', kind: 'entity',
    get: (s, a) => ok(certificateView(s, getCertificate(s, p(a, 0)))),
    exists: (s, a) => findCertificate(s, p(a, 0)) !== undefined,
  },
  {
    pattern: route('/certificates/{}/snis'), entity: 'snis', kind: 'collection', parentField: 'certificate',
    get: (s, a, path, q) => {
      const certificate = getCertificate(s, p(a, 0));
      return ok(paginate(s.snis.filter((x) => x.certificate.id === certificate.id), path, q));
    },
  },
  { pattern: route('/snis'), entity: 'snis', kind: 'collection', get: (s, _, path, q) => ok(paginate(s.snis, path, q)) },
  // Kong's other core collections exist but hold nothing here (plugins and consumers are
  // rejected at load); tools such as decK read them.
  ...(['plugins', 'consumers', 'ca_certificates'] as const).map((entity): EntityRoute => ({
    pattern: route(`/${entity}`), entity, kind: 'collection', get: (_s, _a, path, q) => ok(paginate([], path, q)),
  })),
  {
    pattern: route('/services/{}/plugins'), entity: 'plugins', kind: 'collection', parentField: 'service',
    get: (s, a, path, q) => {
      getService(s, p(a, 0)); // 404 for an unknown service
      return ok(paginate([], path, q));
    },
  },
  {
    pattern: route('/routes/{}/plugins'), entity: 'plugins', kind: 'collection', parentField: 'route',
    get: (s, a, path, q) => {
      getRoute(s, p(a, 0)); // 404 for an unknown route
      return ok(paginate([], path, q));
    },
  },
  {
    pattern: route('/snis/{}'), entity: 'snis', kind: 'entity',
    get: (s, a) => ok(getSni(s, p(a, 0))),
    exists: (s, a) => byIdOrName(s.snis, p(a, 0)) !== undefined,
  },
];

function refuse(verb: string, entity: string): never {
  throw new GatewayError('OPERATION_UNSUPPORTED', { message: `cannot ${verb} '${entity}' entities when not using a database` });
}

/**
 * An entity endpoint, or undefined when the path is not one. GET/HEAD read the snapshot; a
 * write is refused as Kong's off strategy does, after Kong's own checks: an invalid POST body
 * is a 400 schema violation, PATCH of a missing entity a 404, DELETE of one a 204.
 */
export function routeEntityRequest(
  snapshot: Snapshot,
  method: string,
  pathname: string,
  query: URLSearchParams,
  body: () => unknown,
): AdminResult | undefined {
  for (const r of ROUTES) {
    const m = r.pattern.exec(pathname);
    if (m === null) continue;
    const params = m.slice(1).map((x) => {
      try {
        return decodeURIComponent(x);
      } catch {
        return notFound();
      }
    });
    if (method === 'GET' || method === 'HEAD') return r.get(snapshot, params, pathname.replace(/\/$/, ''), query);
    if (r.kind === 'collection') {
      if (method !== 'POST') throw new GatewayError('METHOD_NOT_ALLOWED');
      const input = body();
      const withParent =
        r.parentField !== undefined && typeof input === 'object' && input !== null && !Array.isArray(input)
          ? { ...input, [r.parentField]: p(params, 0) }
          : input;
      validateEntity(r.entity, withParent);
      return refuse('create', r.entity);
    }
    switch (method) {
      case 'PATCH':
        if (r.exists !== undefined && !r.exists(snapshot, params)) return notFound();
        return refuse('update', r.entity);
      case 'PUT':
        return refuse('create or update', r.entity);
      case 'DELETE':
        if (r.exists !== undefined && !r.exists(snapshot, params)) return { status: 204 };
        return refuse('remove', r.entity);
      default:
        throw new GatewayError('METHOD_NOT_ALLOWED');
    }
  }
  return undefined;
}
