// The read-only entity endpoints of Kong's admin API in DB-less mode (kong/api/routes/*.lua), and the
// refusal of every write (kong/db/strategies/off/init.lua).
import type { Certificate, Consumer, ConsumerGroup, Plugin, Route, Service, Snapshot, Sni, Target, Upstream } from '../declarative/index.ts';
import { formatTarget, validateEntity } from '../declarative/index.ts';
import { GatewayError } from '../errors.ts';
import type { AdminResult } from './admin-types.ts';
import { paginate } from './paginate.ts';
import { pluginSchemaView } from './plugin-schema-view.ts';
import { BUNDLED_PLUGINS, PLUGIN_SCHEMAS } from '../plugins/plugin-schemas.ts';
import { isExpired } from '../plugins/consumer-index.ts';

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

type Handler = (snapshot: Snapshot, params: readonly string[], path: string, query: URLSearchParams, enabledPlugins: ReadonlySet<string>) => AdminResult;

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
  /** Not an entity: every method but GET is 405 Method not allowed. */
  readonly readOnly?: boolean;
};

const seg = '([^/]+)';
const route = (path: string): RegExp => new RegExp(`^${path.replace(/\{\}/g, seg)}/?$`);

const getService = (s: Snapshot, ref: string): Service => byIdOrName(s.services, ref) ?? notFound();
const getRoute = (s: Snapshot, ref: string): Route => byIdOrName(s.routes, ref) ?? notFound();
const getUpstream = (s: Snapshot, ref: string): Upstream => byIdOrName(s.upstreams, ref) ?? notFound();
const getSni = (s: Snapshot, ref: string): Sni => byIdOrName(s.snis, ref) ?? notFound();
const getCertificate = (s: Snapshot, ref: string): Certificate => findCertificate(s, ref) ?? notFound();
const p = (params: readonly string[], i: number): string => params[i] ?? '';

// /plugins/{id or instance_name}.
function findPlugin(list: readonly Plugin[], ref: string): Plugin | undefined {
  return UUID.test(ref) ? list.find((x) => x.id === ref) : list.find((x) => x.instance_name === ref);
}
const getPlugin = (list: readonly Plugin[], ref: string): Plugin => findPlugin(list, ref) ?? notFound();

// /consumers/{id or username}.
function findConsumer(s: Snapshot, ref: string): Consumer | undefined {
  return (UUID.test(ref) ? s.consumers.find((c) => c.id === ref) : undefined) ?? s.consumers.find((c) => c.username === ref);
}
const getConsumer = (s: Snapshot, ref: string): Consumer => findConsumer(s, ref) ?? notFound();

// /consumer_groups/{id or name}, and the two sides of a membership.
const findConsumerGroup = (s: Snapshot, ref: string): ConsumerGroup | undefined => byIdOrName(s.consumer_groups, ref);
const getConsumerGroup = (s: Snapshot, ref: string): ConsumerGroup => findConsumerGroup(s, ref) ?? notFound();
const membersOf = (s: Snapshot, group: ConsumerGroup): Consumer[] => {
  const ids = new Set(s.consumer_group_consumers.filter((m) => m.consumer_group.id === group.id).map((m) => m.consumer.id));
  return s.consumers.filter((c) => ids.has(c.id));
};
const groupsOf = (s: Snapshot, consumer: Consumer): ConsumerGroup[] => {
  const ids = new Set(s.consumer_group_consumers.filter((m) => m.consumer.id === consumer.id).map((m) => m.consumer_group.id));
  return s.consumer_groups.filter((g) => ids.has(g.id));
};

/** /{parent}/{p}/plugins and /{parent}/{p}/plugins/{id}: the plugins configured on that entity. */
function nestedPlugins(parent: string, field: 'service' | 'route' | 'consumer' | 'consumer_group', parentId: (s: Snapshot, ref: string) => string): EntityRoute[] {
  const own = (s: Snapshot, ref: string): Plugin[] => {
    const id = parentId(s, ref);
    return s.plugins.filter((x) => x[field]?.id === id);
  };
  return [
    {
      pattern: route(`/${parent}/{}/plugins`), entity: 'plugins', kind: 'collection', parentField: field,
      get: (s, a, path, q) => ok(paginate(own(s, p(a, 0)), path, q)),
    },
    {
      pattern: route(`/${parent}/{}/plugins/{}`), entity: 'plugins', kind: 'entity',
      get: (s, a) => ok(getPlugin(own(s, p(a, 0)), p(a, 1))),
      exists: (s, a) => orUndefined(() => findPlugin(own(s, p(a, 0)), p(a, 1))) !== undefined,
    },
  ];
}

// A lookup whose parent may be missing (its getter throws 404): undefined instead.
function orUndefined<T>(find: () => T | undefined): T | undefined {
  try {
    return find();
  } catch {
    return undefined;
  }
}

type Credential = { readonly id: string; readonly consumer: { readonly id: string } };

/**
 * A credential collection: /{name}, /{name}/{id or endpoint key}, /{name}/{c}/consumer, and
 * /consumers/{c}/{nested} with /consumers/{c}/{nested}/{id or key} (acls: the group name).
 */
function credentialRoutes<T extends Credential>(
  name: string,
  nested: string,
  entity: string,
  list: (s: Snapshot) => readonly T[],
  byKey: (credential: T, ref: string) => boolean,
): EntityRoute[] {
  const find = (items: readonly T[], ref: string): T | undefined => (UUID.test(ref) ? items.find((c) => c.id === ref) : undefined) ?? items.find((c) => byKey(c, ref));
  const ofConsumer = (s: Snapshot, ref: string): T[] => {
    const consumer = getConsumer(s, ref);
    return list(s).filter((c) => c.consumer.id === consumer.id);
  };
  // /consumers/{c}/acls/{group}: the group name addresses the membership too.
  const findNested = (s: Snapshot, consumerRef: string, ref: string): T | undefined =>
    find(ofConsumer(s, consumerRef), ref) ?? ofConsumer(s, consumerRef).find((c) => (c as unknown as { group?: string }).group === ref);
  return [
    { pattern: route(`/${name}`), entity, kind: 'collection', get: (s, _, path, q) => ok(paginate(list(s), path, q)) },
    {
      pattern: route(`/${name}/{}`), entity, kind: 'entity',
      get: (s, a) => ok(find(list(s), p(a, 0)) ?? notFound()),
      exists: (s, a) => find(list(s), p(a, 0)) !== undefined,
    },
    {
      pattern: route(`/${name}/{}/consumer`), entity: 'consumers', kind: 'entity',
      get: (s, a) => {
        const credential = find(list(s), p(a, 0)) ?? notFound();
        return ok(s.consumers.find((c) => c.id === credential.consumer.id) ?? notFound());
      },
    },
    {
      pattern: route(`/consumers/{}/${nested}`), entity, kind: 'collection', parentField: 'consumer',
      get: (s, a, path, q) => ok(paginate(ofConsumer(s, p(a, 0)), path, q)),
    },
    {
      pattern: route(`/consumers/{}/${nested}/{}`), entity, kind: 'entity',
      get: (s, a) => ok(findNested(s, p(a, 0), p(a, 1)) ?? notFound()),
      exists: (s, a) => orUndefined(() => findNested(s, p(a, 0), p(a, 1))) !== undefined,
    },
  ];
}

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
  // Kong's other core collections exist but hold nothing here; tools such as decK read them.
  { pattern: route('/ca_certificates'), entity: 'ca_certificates', kind: 'collection', get: (_s, _a, path, q) => ok(paginate([], path, q)) },
  // Plugins (kong/api/routes/plugins.lua): /plugins/enabled before /plugins/{id or instance_name}.
  {
    pattern: route('/plugins/enabled'), entity: 'plugins', kind: 'entity', readOnly: true,
    get: (_s, _a, _p, _q, enabled) => ok({ enabled_plugins: [...enabled].sort() }),
  },
  { pattern: route('/plugins'), entity: 'plugins', kind: 'collection', get: (s, _, path, q) => ok(paginate(s.plugins, path, q)) },
  {
    pattern: route('/plugins/{}'), entity: 'plugins', kind: 'entity',
    get: (s, a) => ok(getPlugin(s.plugins, p(a, 0))),
    exists: (s, a) => findPlugin(s.plugins, p(a, 0)) !== undefined,
  },
  {
    pattern: route('/schemas/plugins/{}'), entity: 'plugins', kind: 'entity', readOnly: true,
    get: (_s, a) => {
      const schema = PLUGIN_SCHEMAS.get(p(a, 0));
      if (schema === undefined) throw new GatewayError('NOT_FOUND', { message: `No plugin named '${p(a, 0)}'` });
      return ok(pluginSchemaView(schema));
    },
  },
  ...nestedPlugins('services', 'service', (s, ref) => getService(s, ref).id),
  ...nestedPlugins('routes', 'route', (s, ref) => getRoute(s, ref).id),
  ...nestedPlugins('consumers', 'consumer', (s, ref) => getConsumer(s, ref).id),
  // Consumers and the credential collections of the authentication plugins (their api.lua and
  // admin_api_name): /key-auths, /basic-auths, /acls, and each under /consumers/{c}.
  { pattern: route('/consumers'), entity: 'consumers', kind: 'collection', get: (s, _, path, q) => ok(paginate(s.consumers, path, q)) },
  {
    pattern: route('/consumers/{}'), entity: 'consumers', kind: 'entity',
    get: (s, a) => ok(getConsumer(s, p(a, 0))),
    exists: (s, a) => findConsumer(s, p(a, 0)) !== undefined,
  },
  // Consumer groups (Kong Gateway's admin API): the group with its members and plugins, its
  // members, a consumer's groups. Membership changes are writes: 405 in DB-less mode.
  { pattern: route('/consumer_groups'), entity: 'consumer_groups', kind: 'collection', get: (s, _, path, q) => ok(paginate(s.consumer_groups, path, q)) },
  {
    pattern: route('/consumer_groups/{}'), entity: 'consumer_groups', kind: 'entity',
    get: (s, a) => {
      const group = getConsumerGroup(s, p(a, 0));
      return ok({ consumer_group: group, consumers: membersOf(s, group), plugins: s.plugins.filter((x) => x.consumer_group?.id === group.id) });
    },
    exists: (s, a) => findConsumerGroup(s, p(a, 0)) !== undefined,
  },
  {
    pattern: route('/consumer_groups/{}/consumers'), entity: 'consumer_group_consumers', kind: 'collection', readOnly: true,
    get: (s, a) => ok({ consumers: membersOf(s, getConsumerGroup(s, p(a, 0))) }),
  },
  {
    pattern: route('/consumers/{}/consumer_groups'), entity: 'consumer_group_consumers', kind: 'collection', readOnly: true,
    get: (s, a) => ok({ consumer_groups: groupsOf(s, getConsumer(s, p(a, 0))) }),
  },
  ...nestedPlugins('consumer_groups', 'consumer_group', (s, ref) => getConsumerGroup(s, ref).id),
  ...credentialRoutes('key-auths', 'key-auth', 'keyauth_credentials', (s) => s.keyauth_credentials, (c, ref) => c.key === ref),
  ...credentialRoutes('basic-auths', 'basic-auth', 'basicauth_credentials', (s) => s.basicauth_credentials, (c, ref) => c.username === ref),
  ...credentialRoutes('acls', 'acls', 'acls', (s) => s.acls, () => false),
  ...credentialRoutes('jwts', 'jwt', 'jwt_secrets', (s) => s.jwt_secrets, (c, ref) => c.key === ref),
  ...credentialRoutes('hmac-auths', 'hmac-auth', 'hmacauth_credentials', (s) => s.hmacauth_credentials, (c, ref) => c.username === ref),
  {
    pattern: route('/snis/{}'), entity: 'snis', kind: 'entity',
    get: (s, a) => ok(getSni(s, p(a, 0))),
    exists: (s, a) => byIdOrName(s.snis, p(a, 0)) !== undefined,
  },
];

// DB-less Kong's off strategy reads a key-auth credential only while its ttl (expiry, Unix
// seconds) is ahead, and shows the seconds it has left (strategies/off/init.lua process_ttl_field).
function withCredentialTtls(snapshot: Snapshot, now: number): Snapshot {
  if (!snapshot.keyauth_credentials.some((c) => c.ttl !== undefined)) return snapshot;
  const live = snapshot.keyauth_credentials.filter((c) => !isExpired(c, now));
  return { ...snapshot, keyauth_credentials: live.map((c) => (c.ttl === undefined ? c : { ...c, ttl: c.ttl - Math.floor(now) })) };
}

function refuse(verb: string, entity: string): never {
  throw new GatewayError('OPERATION_UNSUPPORTED', { message: `cannot ${verb} '${entity}' entities when not using a database` });
}

/**
 * An entity endpoint, or undefined when the path is not one. GET/HEAD read the snapshot; a
 * write is refused as Kong's off strategy does, after Kong's own checks: an invalid POST body
 * is a 400 schema violation, PATCH of a missing entity a 404, DELETE of one a 204.
 */
export function routeEntityRequest(
  running: Snapshot,
  method: string,
  pathname: string,
  query: URLSearchParams,
  body: () => unknown,
  enabledPlugins: ReadonlySet<string> = BUNDLED_PLUGINS,
  now: number = Date.now() / 1000,
): AdminResult | undefined {
  const snapshot = withCredentialTtls(running, now);
  // POST /schemas/plugins/validate (kong/api/routes/kong.lua): a plugin checked, never stored.
  if (pathname.replace(/\/$/, '') === '/schemas/plugins/validate') {
    if (method !== 'POST') throw new GatewayError('METHOD_NOT_ALLOWED');
    validateEntity('plugins', body(), enabledPlugins);
    return ok({ message: 'schema validation successful' });
  }
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
    if (method === 'GET' || method === 'HEAD') return r.get(snapshot, params, pathname.replace(/\/$/, ''), query, enabledPlugins);
    if (r.readOnly === true) throw new GatewayError('METHOD_NOT_ALLOWED');
    if (r.kind === 'collection') {
      if (method !== 'POST') throw new GatewayError('METHOD_NOT_ALLOWED');
      const input = body();
      const withParent =
        r.parentField !== undefined && typeof input === 'object' && input !== null && !Array.isArray(input)
          ? { ...input, [r.parentField]: p(params, 0) }
          : input;
      validateEntity(r.entity, withParent, enabledPlugins);
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
