// The admin API (Kong's shapes, DB-less): read-only entities, POST /config, GET /status.
/** Builds the admin HTTP server from the runtime's snapshot holder. */
export { buildAdminServer } from './build-admin-server.ts';
/** The admin server's dependencies, extra route hooks and their results. */
export { KONG_VERSION, type AdminDeps, type AdminResult, type AdminRouteHook, type ProxyStats, type ServerStats } from './admin-types.ts';
/** A target as the admin API shows it (normalised target string). */
export { targetView } from './entity-routes.ts';
