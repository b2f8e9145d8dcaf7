// POST /config (kong/api/routes/config.lua, kong.md §1.7): the whole configuration replaced at
// once. The body is a JSON object with `_format_version`, a `config` field (JSON body, urlencoded
// or multipart form, as `curl -F config=@kong.yml` sends it) holding YAML or JSON text, or the raw
// YAML/JSON text itself. Nothing changes unless the new configuration is entirely valid.
import type { Snapshot } from '../declarative/index.ts';
import { parseDeclarativeConfig, configHash } from '../declarative/index.ts';
import { GatewayError } from '../errors.ts';
import type { AdminResult } from './admin-types.ts';

/** A request body as read off the socket. */
export type RawBody = { readonly contentType: string; readonly bytes: Buffer };

/** The configuration text inside a POST /config body; throws CONFIG_EXPECTED when there is none. */
export async function configTextOf(body: RawBody): Promise<string> {
  const type = body.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (body.bytes.length === 0) throw new GatewayError('CONFIG_EXPECTED');
  if (type === 'application/json') {
    const text = body.bytes.toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new GatewayError('BAD_JSON');
    }
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const record = parsed as Record<string, unknown>;
      if ('_format_version' in record) return text;
      if (typeof record.config === 'string') return record.config;
    }
    throw new GatewayError('CONFIG_EXPECTED');
  }
  if (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') {
    // undici's Response parses both form encodings, multipart boundaries included.
    const form = await new Response(body.bytes, { headers: { 'content-type': body.contentType } }).formData();
    const config = form.get('config');
    if (config === null) throw new GatewayError('CONFIG_EXPECTED');
    return typeof config === 'string' ? config : await config.text();
  }
  return body.bytes.toString('utf8');
}

/** Kong's truthy query flags: true, 1, on, yes (any case). */
export function isTruthyFlag(value: string | null): boolean {
  return value !== null && ['true', '1', 'on', 'yes'].includes(value.toLowerCase());
}

/** The 201 body: every entity type keyed by id, as Kong returns the flattened entities. */
export function flattenedEntities(snapshot: Snapshot): object {
  const byId = (list: readonly { id: string }[]): Record<string, unknown> => Object.fromEntries(list.map((e) => [e.id, e]));
  return {
    services: byId(snapshot.services),
    routes: byId(snapshot.routes),
    upstreams: byId(snapshot.upstreams),
    targets: byId(snapshot.targets),
    certificates: byId(snapshot.certificates),
    snis: byId(snapshot.snis),
  };
}

/** Everything POST /config needs from the admin server. */
export type PostConfigContext = {
  readonly current: Snapshot;
  readonly body: RawBody;
  readonly query: URLSearchParams;
  readonly apply: (snapshot: Snapshot) => Promise<void>;
  readonly now?: number;
};

/** Parses, validates and applies a new configuration; the old one stays on any failure. */
export async function postConfig(ctx: PostConfigContext): Promise<AdminResult> {
  const text = await configTextOf(ctx.body);
  // check_hash=1: only the literal "1"; same text as the running configuration → 304.
  if (ctx.query.get('check_hash') === '1' && configHash(text) === ctx.current.hash) return { status: 304 };
  let snapshot: Snapshot;
  try {
    snapshot = parseDeclarativeConfig(text, { fileName: 'config.yml', ...(ctx.now === undefined ? {} : { now: ctx.now }) });
  } catch (e) {
    if (e instanceof GatewayError) {
      return { status: e.status, body: e.toBody({ flattenErrors: isTruthyFlag(ctx.query.get('flatten_errors')) }) };
    }
    throw e;
  }
  await ctx.apply(snapshot);
  return { status: 201, body: flattenedEntities(snapshot) };
}
