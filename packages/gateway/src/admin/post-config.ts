// POST /config (kong/api/routes/config.lua): the whole configuration replaced at
// once. The body is a JSON object with `_format_version`, a `config` field (JSON body, urlencoded
// or multipart form, as `curl -F config=@kong.yml` sends it) holding YAML or JSON text, or the raw
// YAML/JSON text itself. Nothing changes unless the new configuration is entirely valid.
// (The hash of a `_format_version` JSON body is taken over its re-serialised text.)
import type { Snapshot } from '../declarative/index.ts';
import { parseDeclarativeConfig, configHash, ENTITY_LISTS, jsonTooDeep } from '../declarative/index.ts';
import { GatewayError } from '../errors.ts';
import type { AdminResult } from './admin-types.ts';
import type { RedisUrlFields } from '../declarative/redis-url-defaults.ts';

/** A request body as read off the socket. */
export type RawBody = { readonly contentType: string; readonly bytes: Buffer };

/** What a POST /config request asks for: the configuration text and Kong's two flags. */
export type ConfigRequest = { readonly text: string; readonly flattenErrors: boolean; readonly checkHash: boolean };

/**
 * Reads a POST /config request as kong/api/routes/config.lua does: params (query, JSON body or
 * form) with `_format_version` are the configuration; else the `config` param; else the raw
 * body. Nothing at all → CONFIG_EXPECTED.
 */
export async function readConfigRequest(body: RawBody, query: URLSearchParams): Promise<ConfigRequest> {
  const type = body.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  const raw = body.bytes.toString('utf8');
  const params = new Map<string, unknown>(query);
  let text: string | undefined;
  if (type === 'application/json' && body.bytes.length > 0) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new GatewayError('BAD_JSON');
    }
    // cjson refuses past its depth limit ("Cannot parse JSON body"); JSON.parse does not, and
    // re-serialising a `_format_version` body overflowed the stack (nesting-depth.ts).
    if (jsonTooDeep(raw) !== undefined) throw new GatewayError('BAD_JSON');
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const record = parsed as Record<string, unknown>;
      for (const key of ['config', 'flatten_errors', 'check_hash']) if (key in record) params.set(key, record[key]);
      // The whole object is the configuration; Kong drops its own flags from it.
      if ('_format_version' in record) {
        const { flatten_errors: _f, check_hash: _c, ...config } = record;
        text = JSON.stringify(config);
      }
    }
  } else if (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') {
    // undici's Response parses both form encodings, multipart boundaries included.
    const form = await new Response(body.bytes, { headers: { 'content-type': body.contentType } }).formData();
    for (const [key, value] of form) params.set(key, typeof value === 'string' ? value : await value.text());
  }
  const config = params.get('config');
  text ??= typeof config === 'string' ? config : raw;
  if (text === '') throw new GatewayError('CONFIG_EXPECTED');
  return { text, flattenErrors: isTruthyFlag(params.get('flatten_errors')), checkHash: String(params.get('check_hash')) === '1' };
}

/** Kong's truthy(): boolean true, or "true", "1", "on", "yes" in any case. */
export function isTruthyFlag(value: unknown): boolean {
  if (value === true || value === 1) return true;
  return typeof value === 'string' && ['true', '1', 'on', 'yes'].includes(value.toLowerCase());
}

/** The 201 body: each entity type that has entities, keyed by id (Kong's flattened entities). */
export function flattenedEntities(snapshot: Snapshot): object {
  const out: Record<string, Record<string, unknown>> = {};
  for (const type of ENTITY_LISTS) {
    if (snapshot[type].length > 0) out[type] = Object.fromEntries(snapshot[type].map((e) => [e.id, e]));
  }
  return out;
}

/** Everything POST /config needs from the admin server. */
export type PostConfigContext = {
  readonly current: Snapshot;
  readonly body: RawBody;
  readonly query: URLSearchParams;
  readonly apply: (snapshot: Snapshot) => Promise<void>;
  readonly now?: number;
  /** The plugins a configuration may use. */
  readonly enabledPlugins?: ReadonlySet<string>;
  /** The node's REDIS_URL, read (parseDeclarativeConfig's redisDefaults). */
  readonly redisDefaults?: RedisUrlFields;
};

/** Parses, validates and applies a new configuration; the old one stays on any failure. */
export async function postConfig(ctx: PostConfigContext): Promise<AdminResult> {
  const request = await readConfigRequest(ctx.body, ctx.query);
  // check_hash=1: only the literal "1"; same text as the running configuration → 304.
  if (request.checkHash && configHash(request.text) === ctx.current.hash) return { status: 304 };
  let snapshot: Snapshot;
  try {
    snapshot = parseDeclarativeConfig(request.text, {
      fileName: 'config.yml',
      ...(ctx.now === undefined ? {} : { now: ctx.now }),
      ...(ctx.enabledPlugins === undefined ? {} : { enabledPlugins: ctx.enabledPlugins }),
      ...(ctx.redisDefaults === undefined ? {} : { redisDefaults: ctx.redisDefaults }),
    });
  } catch (e) {
    if (e instanceof GatewayError) return { status: e.status, body: e.toBody({ flattenErrors: request.flattenErrors }) };
    throw e;
  }
  await ctx.apply(snapshot);
  return { status: 201, body: flattenedEntities(snapshot) };
}
