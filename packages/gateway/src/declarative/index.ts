// kong.yml → validated, defaulted, deep-frozen Snapshot. Pure: no I/O; time and randomness
// are options so tests are deterministic.
/** Parses and validates a declarative configuration (YAML or JSON text); throws GatewayError DECLARATIVE_CONFIG. */
export { parseDeclarativeConfig, configHash, type ParseOptions } from './parse-declarative-config.ts';
/** The nesting bound of a configuration document, and the check of a JSON text against it. */
export { MAX_NESTING, jsonTooDeep } from './nesting-depth.ts';
/** The running configuration as kong.yml text (GET /config). */
export { exportConfig } from './export-config.ts';
/** "2 services, 3 routes, …" and the empty configuration (hash of 32 zeros). */
export { summarizeSnapshot, EMPTY_SNAPSHOT } from './summarize-snapshot.ts';
/** Target strings: Kong's admin-view normalisation (default port 8000) and their parts. */
export { formatTarget, parseTarget, DEFAULT_TARGET_PORT } from './entities/target.ts';
/** Route regexes in PCRE spelling compiled as JS: paths (without `~`, anchored) and `~*` header values. */
export { compileRouteRegex, compileHeaderRegex } from './pcre-regex.ts';
/** Kong's deterministic entity ids (uuidv5 of the entity name and its key). */
export { deriveEntityId } from './uuid-v5.ts';
/** Kong's default upstream `healthchecks` object. */
export { HEALTHCHECKS_DEFAULTS } from './entities/upstream.ts';
/** Validation of one entity as a top-level declarative record (the admin API's schema check). */
export { validateEntity } from './validate-entity.ts';
/** The entity lists of a Snapshot, in export order. */
export { ENTITY_LISTS } from './types.ts';
/** Kong's basic-auth password digest (what basicauth_credentials hold once loaded). */
export { hashBasicAuthPassword } from './resolve-entities.ts';
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
  Consumer,
  ConsumerGroup,
  ConsumerGroupConsumer,
  Plugin,
  KeyauthCredential,
  BasicauthCredential,
  Acl,
  Snapshot,
} from './types.ts';
