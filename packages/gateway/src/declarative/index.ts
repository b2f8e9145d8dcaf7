// kong.yml → validated, defaulted, deep-frozen Snapshot. Pure: no I/O; time and randomness
// are options so tests are deterministic.
/** Parses and validates a declarative configuration (YAML or JSON text); throws GatewayError DECLARATIVE_CONFIG. */
export { parseDeclarativeConfig, type ParseOptions } from './parse-declarative-config.ts';
/** The entity types and the Snapshot every other module codes against. */
export type {
  Protocol,
  ForeignKey,
  Service,
  Route,
  RouteEndpoint,
  Algorithm,
  HashOn,
  HealthcheckType,
  ActiveHealthcheck,
  PassiveHealthcheck,
  Healthchecks,
  Upstream,
  Target,
  Certificate,
  Sni,
  Snapshot,
} from './types.ts';
