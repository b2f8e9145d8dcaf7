// What the declarative layer knows of a plugin: its Kong schema as data (kong/plugins/<name>/
// schema.lua) and its PRIORITY. Pure: the request-time half lives in <name>/handler.ts.
import type { RecordSchema } from '../declarative/schema.ts';

/** Kong's typedefs.protocols_http: the protocols of the http subsystem. */
export const HTTP_PROTOCOLS = ['grpc', 'grpcs', 'http', 'https'] as const;

/** One plugin's schema, as its kong/plugins/<name>/schema.lua declares it. */
export type PluginSchema = {
  readonly name: string;
  /** Kong's handler PRIORITY: higher runs first in every phase. */
  readonly priority: number;
  /** False for Kong's `consumer = typedefs.no_consumer`: the plugin cannot be set on a consumer. */
  readonly consumerScoped: boolean;
  /** The `config` record: fields with Kong's defaults, and checks on it. */
  readonly config: RecordSchema;
  /** Kong's plugin-level entity_checks, as Kong writes them (paths such as `config.allow`). */
  readonly entityChecks?: readonly EntityCheck[];
  /**
   * Kong's `custom_validator` on the config record: runs once the fields are valid; its error
   * is the `config` field's error.
   */
  readonly configValidator?: (config: Readonly<Record<string, unknown>>) => string | undefined;
};

/** The entity checks plugins use, in Kong's own spelling (shown as is by GET /schemas/plugins/{name}). */
export type EntityCheck =
  | { readonly only_one_of: readonly string[] }
  | { readonly at_least_one_of: readonly string[] }
  | { readonly conditional: ConditionalCheck };

/**
 * Kong's `conditional` as plugins use it: when `if_field` is greater than `gt` (or equals `eq`),
 * `then_field` must contain a value (or be set at all: `required`).
 */
export type ConditionalCheck = {
  readonly if_field: string;
  readonly if_match: { readonly gt: number } | { readonly eq: string };
  readonly then_field: string;
  readonly then_match: { readonly contains: string } | { readonly required: true };
};
