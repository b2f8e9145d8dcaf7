// The entity types of a loaded kong.yml, in Kong's own snake_case (kong/db/schema/entities/*.lua).
// Every default is filled and every foreign key is resolved to `{ id }`, so the data plane and
// the admin API never have to know a default or chase a name. A Snapshot is deep-frozen.

/** Service protocols (kong/db/schema/typedefs.lua `protocol`). */
export type Protocol = 'grpc' | 'grpcs' | 'http' | 'https' | 'tcp' | 'tls' | 'tls_passthrough' | 'udp';

/** A resolved foreign key, as Kong shows it: `{ "id": "<uuid>" }`. */
export type ForeignKey = { readonly id: string };

/** Kong's `created_at`/`updated_at` pair (seconds; targets carry a millisecond fraction). */
type Timestamps = { readonly created_at: number; readonly updated_at: number };

/** A service (kong/db/schema/entities/services.lua). */
export type Service = Timestamps & {
  readonly id: string;
  readonly name: string | null;
  readonly protocol: Protocol;
  readonly host: string;
  /** 80 unless given, even for https (only the `url` shorthand infers 443). */
  readonly port: number;
  readonly path: string | null;
  readonly retries: number;
  /** Milliseconds. */
  readonly connect_timeout: number;
  readonly write_timeout: number;
  readonly read_timeout: number;
  readonly tags: readonly string[] | null;
  readonly client_certificate: ForeignKey | null;
  readonly tls_verify: boolean | null;
  readonly tls_verify_depth: number | null;
  readonly ca_certificates: readonly string[] | null;
  readonly enabled: boolean;
};

/** A stream route endpoint (`sources`/`destinations`). */
export type RouteEndpoint = { readonly ip?: string; readonly port?: number };

/** A route (kong/db/schema/entities/routes.lua). */
export type Route = Timestamps & {
  readonly id: string;
  readonly name: string | null;
  readonly protocols: readonly Protocol[];
  readonly methods: readonly string[] | null;
  readonly hosts: readonly string[] | null;
  /** Prefix paths ("/x") and regex paths ("~/x"); regexes keep Kong's PCRE spelling. */
  readonly paths: readonly string[] | null;
  /** Header name (lower-cased) → values; a value starting with "~*" is a case-insensitive regex. */
  readonly headers: Readonly<Record<string, readonly string[]>> | null;
  readonly snis: readonly string[] | null;
  readonly sources: readonly RouteEndpoint[] | null;
  readonly destinations: readonly RouteEndpoint[] | null;
  readonly strip_path: boolean;
  readonly preserve_host: boolean;
  readonly regex_priority: number;
  readonly path_handling: 'v0' | 'v1';
  readonly https_redirect_status_code: 426 | 301 | 302 | 307 | 308;
  readonly request_buffering: boolean;
  readonly response_buffering: boolean;
  readonly service: ForeignKey | null;
  readonly tags: readonly string[] | null;
};

/** Load-balancing algorithms (kong/db/schema/entities/upstreams.lua). */
export type Algorithm = 'round-robin' | 'consistent-hashing' | 'least-connections' | 'latency';

/** What consistent hashing hashes on. */
export type HashOn = 'none' | 'consumer' | 'ip' | 'header' | 'cookie' | 'path' | 'query_arg' | 'uri_capture';

/** Health-check probe/traffic type; grpc/grpcs pass the schema but no checker supports them. */
export type HealthcheckType = 'tcp' | 'http' | 'https' | 'grpc' | 'grpcs';

/** Active health checks; intervals and timeout in seconds, 0 disables (Kong's defaults). */
export type ActiveHealthcheck = {
  readonly type: HealthcheckType;
  readonly timeout: number;
  readonly concurrency: number;
  readonly http_path: string;
  readonly https_sni: string | null;
  readonly https_verify_certificate: boolean;
  readonly headers: Readonly<Record<string, readonly string[]>> | null;
  readonly healthy: {
    readonly interval: number;
    readonly http_statuses: readonly number[];
    readonly successes: number;
  };
  readonly unhealthy: {
    readonly interval: number;
    readonly http_statuses: readonly number[];
    readonly tcp_failures: number;
    readonly timeouts: number;
    readonly http_failures: number;
  };
};

/** Passive health checks (circuit breaker) over proxied traffic. */
export type PassiveHealthcheck = {
  readonly type: HealthcheckType;
  readonly healthy: { readonly http_statuses: readonly number[]; readonly successes: number };
  readonly unhealthy: {
    readonly http_statuses: readonly number[];
    readonly tcp_failures: number;
    readonly timeouts: number;
    readonly http_failures: number;
  };
};

/** An upstream's `healthchecks` record, always complete (kong/db/schema/entities/upstreams.lua). */
export type Healthchecks = {
  readonly active: ActiveHealthcheck;
  readonly passive: PassiveHealthcheck;
  /** Percent; the balancer is healthy iff available/total*100 > threshold (strict). */
  readonly threshold: number;
};

/** An upstream (kong/db/schema/entities/upstreams.lua). */
export type Upstream = Timestamps & {
  readonly id: string;
  readonly name: string;
  readonly algorithm: Algorithm;
  readonly hash_on: HashOn;
  readonly hash_fallback: HashOn;
  readonly hash_on_header: string | null;
  readonly hash_fallback_header: string | null;
  readonly hash_on_cookie: string | null;
  readonly hash_on_cookie_path: string;
  readonly hash_on_query_arg: string | null;
  readonly hash_fallback_query_arg: string | null;
  readonly hash_on_uri_capture: string | null;
  readonly hash_fallback_uri_capture: string | null;
  readonly slots: number;
  readonly healthchecks: Healthchecks;
  readonly tags: readonly string[] | null;
  readonly host_header: string | null;
  readonly client_certificate: ForeignKey | null;
  readonly use_srv_name: boolean;
};

/**
 * A target (kong/db/schema/entities/targets.lua); `target` is stored as written
 * (kong/db/dao/targets.lua normalises it only for display).
 */
export type Target = Timestamps & {
  readonly id: string;
  readonly upstream: ForeignKey;
  readonly target: string;
  readonly weight: number;
  readonly tags: readonly string[] | null;
};

/** A certificate (kong/db/schema/entities/certificates.lua); PEM text as given. */
export type Certificate = Timestamps & {
  readonly id: string;
  readonly cert: string;
  readonly key: string;
  readonly cert_alt: string | null;
  readonly key_alt: string | null;
  readonly tags: readonly string[] | null;
};

/** An SNI (kong/db/schema/entities/snis.lua): a (wildcard) host name bound to a certificate. */
export type Sni = Timestamps & {
  readonly id: string;
  readonly name: string;
  readonly certificate: ForeignKey;
  readonly tags: readonly string[] | null;
};

/** A consumer (kong/db/schema/entities/consumers.lua): at least one of username and custom_id. */
export type Consumer = Timestamps & {
  readonly id: string;
  readonly username: string | null;
  readonly custom_id: string | null;
  readonly tags: readonly string[] | null;
};

/**
 * A plugin instance (kong/db/schema/entities/plugins.lua). `config` is the plugin's own record
 * (kong/plugins/<name>/schema.lua), complete with its defaults; its shape depends on `name`.
 */
export type Plugin = Timestamps & {
  readonly id: string;
  readonly name: string;
  readonly instance_name: string | null;
  readonly route: ForeignKey | null;
  readonly service: ForeignKey | null;
  readonly consumer: ForeignKey | null;
  /** A consumer group the instance is scoped to (Kong Gateway's consumer group scope). */
  readonly consumer_group: ForeignKey | null;
  readonly config: Readonly<Record<string, unknown>>;
  readonly protocols: readonly Protocol[];
  readonly enabled: boolean;
  readonly tags: readonly string[] | null;
};

/** A key-auth credential (keyauth_credentials). */
export type KeyauthCredential = {
  readonly id: string;
  readonly created_at: number;
  readonly consumer: ForeignKey;
  readonly key: string;
  readonly tags: readonly string[] | null;
  /**
   * When the credential expires, in Unix seconds (`kong config db_export`'s `ttl`); absent when
   * it does not. From that second on it authenticates nothing and the admin API does not show it.
   */
  readonly ttl?: number;
};

/** A basic-auth credential (basicauth_credentials); `password` is Kong's salted SHA-1 hex digest. */
export type BasicauthCredential = {
  readonly id: string;
  readonly created_at: number;
  readonly consumer: ForeignKey;
  readonly username: string;
  readonly password: string;
  readonly tags: readonly string[] | null;
};

/** JWT algorithms a jwt_secret may name (jwt/daos.lua). */
export type JwtAlgorithm =
  | 'HS256' | 'HS384' | 'HS512' | 'RS256' | 'RS384' | 'RS512' | 'ES256' | 'ES384' | 'ES512'
  | 'PS256' | 'PS384' | 'PS512' | 'EdDSA';

/** A jwt credential (jwt_secrets): `key` identifies it in the token, `secret` or `rsa_public_key` verifies it. */
export type JwtSecret = {
  readonly id: string;
  readonly created_at: number;
  readonly consumer: ForeignKey;
  readonly key: string;
  readonly secret: string;
  readonly rsa_public_key: string | null;
  readonly algorithm: JwtAlgorithm;
  readonly tags: readonly string[] | null;
};

/** An hmac-auth credential (hmacauth_credentials): the signature's `username` and the HMAC `secret`. */
export type HmacauthCredential = {
  readonly id: string;
  readonly created_at: number;
  readonly consumer: ForeignKey;
  readonly username: string;
  readonly secret: string;
  readonly tags: readonly string[] | null;
};

/** A consumer group (Kong Gateway's consumer_groups): plugins may be scoped to its members. */
export type ConsumerGroup = Timestamps & {
  readonly id: string;
  readonly name: string;
  readonly tags: readonly string[] | null;
};

/** A consumer's membership of a consumer group (Kong Gateway's consumer_group_consumers). */
export type ConsumerGroupConsumer = {
  readonly id: string;
  readonly created_at: number;
  readonly consumer: ForeignKey;
  readonly consumer_group: ForeignKey;
};

/** A consumer's membership of an ACL group (acls). */
export type Acl = {
  readonly id: string;
  readonly created_at: number;
  readonly consumer: ForeignKey;
  readonly group: string;
  readonly tags: readonly string[] | null;
};

/**
 * A whole validated configuration. Nested entities are flattened into their top-level arrays
 * (a route nested in a service appears in `routes` with `service: { id }`), in file order.
 * Deep-frozen: hold it, swap it, never mutate it.
 */
export type Snapshot = {
  readonly services: readonly Service[];
  readonly routes: readonly Route[];
  readonly upstreams: readonly Upstream[];
  readonly targets: readonly Target[];
  readonly certificates: readonly Certificate[];
  readonly snis: readonly Sni[];
  readonly consumers: readonly Consumer[];
  readonly plugins: readonly Plugin[];
  readonly keyauth_credentials: readonly KeyauthCredential[];
  readonly basicauth_credentials: readonly BasicauthCredential[];
  readonly acls: readonly Acl[];
  readonly jwt_secrets: readonly JwtSecret[];
  readonly hmacauth_credentials: readonly HmacauthCredential[];
  readonly consumer_groups: readonly ConsumerGroup[];
  readonly consumer_group_consumers: readonly ConsumerGroupConsumer[];
  /** Kong's configuration_hash: md5 of the raw text, 32 zeros for the empty configuration. */
  readonly hash: string;
};

/** The entity lists of a Snapshot, in the order exports and POST /config answers list them. */
export const ENTITY_LISTS = [
  'services', 'routes', 'upstreams', 'targets', 'certificates', 'snis', 'consumers', 'plugins',
  'keyauth_credentials', 'basicauth_credentials', 'acls', 'jwt_secrets', 'hmacauth_credentials',
  'consumer_groups', 'consumer_group_consumers',
] as const satisfies readonly (keyof Snapshot)[];
