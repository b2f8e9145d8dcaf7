import type { Snapshot } from '../declarative/index.ts';
import type { RedisUrlFields } from '../declarative/redis-url-defaults.ts';

/** What a handled admin request answers: status, JSON body (none for 204/304), extra headers. */
export type AdminResult = {
  readonly status: number;
  readonly body?: object;
  /** A non-JSON body (e.g. Prometheus text), sent as is; its content-type goes in `headers`. */
  readonly text?: string;
  readonly headers?: Readonly<Record<string, string>>;
};

/**
 * An extra route set (e.g. the health endpoints): answers a request it owns, or returns
 * undefined to let the admin API try its own routes. Throwing GatewayError answers Kong-style.
 */
export type AdminRouteHook = (
  method: string,
  pathname: string,
  query: URLSearchParams,
) => AdminResult | undefined | Promise<AdminResult | undefined>;

/** Live figures for GET /status (nginx's stub_status in Kong). */
/** Client connections and requests of the proxy listeners, so far. */
export type ProxyStats = { readonly accepted: number; readonly active: number; readonly requests: number };

export type ServerStats = {
  readonly connections_accepted: number;
  readonly connections_active: number;
  readonly connections_handled: number;
  readonly connections_reading: number;
  readonly connections_writing: number;
  readonly connections_waiting: number;
  readonly total_requests: number;
};

/** What the admin API needs from the runtime that owns the configuration. */
export type AdminDeps = {
  /** The configuration currently serving. */
  readonly snapshot: () => Snapshot;
  /** Swaps in a new, already validated configuration; a throw keeps the old one (500). */
  readonly applyConfig: (snapshot: Snapshot) => void | Promise<void>;
  /** This node's id (`node_id`). */
  readonly nodeId: string;
  /** Routes tried before the entity endpoints (health endpoints, metrics, …). */
  readonly extraRoutes?: readonly AdminRouteHook[];
  /**
   * The proxy listeners' client connections and requests, added to the admin listener's own in
   * GET /status (nginx stub_status, which Kong returns, counts every listener of the node).
   */
  readonly proxyStats?: () => ProxyStats;
  /** Worker pids for GET /; default this process. */
  readonly pids?: () => { master: number; workers: number[] };
  /** Shown as `configuration` in GET / (never secrets). */
  readonly configuration?: Readonly<Record<string, unknown>>;
  /** Largest accepted request body; default 10 MiB (Kong's admin client_max_body_size). */
  readonly maxBodyBytes?: number;
  /**
   * created_at of entities loaded by POST /config, and the clock key-auth credential `ttl`s are
   * read against (an expired one is not shown); default now (seconds).
   */
  readonly now?: () => number;
  /**
   * Kong-Admin-Token every request must carry (KONG_ADMIN_TOKEN / _FILE); required for a
   * non-loopback admin_listen. Without it: Host and body-type checks instead (guard-admin-request.ts).
   */
  readonly adminToken?: string;
  /** The plugins a configuration may use (Kong's `plugins` setting); default every bundled one. */
  readonly enabledPlugins?: ReadonlySet<string>;
  /** The node's REDIS_URL, read: POST /config fills redis-policy plugins naming no host from it. */
  readonly redisDefaults?: RedisUrlFields;
  /** Unexpected failures (answered 500 without detail); default: printed to stderr. */
  readonly onError?: (error: unknown) => void;
};

/** The Kong version this admin API imitates (GET / `version`). */
export const KONG_VERSION = '3.10.0';
