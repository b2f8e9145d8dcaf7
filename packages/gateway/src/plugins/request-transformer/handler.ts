// kong/plugins/request-transformer/access.lua: the request edited before it is proxied, in
// Kong's order — uri, method, headers, body, querystring — and within each, remove, rename,
// replace, add, append. Templates render against the request as the client sent it.
import type { PluginHandler } from '../plugin-handler.ts';
import { encodeArgs, type PluginContext } from '../plugin-context.ts';
import { appendValue, isJsonObject, splitPair } from '../transformer-pairs.ts';
import { REQUEST_TRANSFORMER_SCHEMA } from './schema.ts';
import { compileTemplate, renderTemplate, type Template } from './template.ts';
import { decodeForm } from '../request-body.ts';

type Ops = { readonly body: readonly string[]; readonly headers: readonly string[]; readonly querystring: readonly string[] };
type RequestTransformerConfig = {
  readonly http_method: string | null;
  readonly remove: Ops; readonly rename: Ops; readonly replace: Ops & { readonly uri: string | null }; readonly add: Ops; readonly append: Ops;
};

/** One `name:value` entry, its value compiled (Kong's iter: an empty value renders nothing). */
type Entry = { readonly name: string; readonly value: Template | undefined };
const compile = (entries: readonly string[]): Entry[] => entries.map((e) => {
  const [name, raw] = splitPair(e);
  const t = raw === undefined ? undefined : compileTemplate(raw);
  return { name, value: typeof t === 'string' ? undefined : t };
});
const render = (e: Entry, ctx: PluginContext): string | undefined => (e.value === undefined ? undefined : renderTemplate(e.value, ctx));

type Value = string | true | (string | true)[];
type Compiled = { remove: Entry[]; rename: Entry[]; replace: Entry[]; add: Entry[]; append: Entry[] };
const section = (conf: RequestTransformerConfig, key: keyof Ops): Compiled => ({
  remove: compile(conf.remove[key]), rename: compile(conf.rename[key]), replace: compile(conf.replace[key]), add: compile(conf.add[key]), append: compile(conf.append[key]),
});
const empty = (c: Compiled): boolean => c.remove.length + c.rename.length + c.replace.length + c.add.length + c.append.length === 0;

// Kong's get_content_type: a substring test on the lower-cased Content-Type.
function bodyKind(contentType: string | undefined): 'json' | 'multi_part' | 'form_encoded' | undefined {
  const ct = contentType?.toLowerCase();
  if (ct === undefined) return undefined;
  if (ct.includes('application/json')) return 'json';
  if (ct.includes('multipart/form-data')) return 'multi_part';
  if (ct.includes('application/x-www-form-urlencoded')) return 'form_encoded';
  return undefined;
}

// Lua truthiness of a table value: absent and false are falsy.
const truthy = (v: unknown): boolean => v !== undefined && v !== false;

/** A Lua table as an ordered map: Kong's rename, replace (truthy), add, append on it. */
function applyOps(table: Map<string, unknown>, ops: Compiled, ctx: PluginContext, hasBody: boolean, addIfNil: boolean): boolean {
  let changed = false;
  if (hasBody) {
    for (const e of ops.remove) {
      table.delete(e.name);
      changed = true;
    }
    for (const e of ops.rename) {
      const to = render(e, ctx);
      if (to === undefined || to === e.name || !truthy(table.get(e.name))) continue;
      table.set(to, table.get(e.name));
      table.delete(e.name);
      changed = true;
    }
    for (const e of ops.replace) {
      const v = render(e, ctx);
      if (v !== undefined && truthy(table.get(e.name))) {
        table.set(e.name, v);
        changed = true;
      }
    }
  }
  for (const e of ops.add) {
    const v = render(e, ctx);
    const current = table.get(e.name);
    if (v !== undefined && (addIfNil ? current === undefined : !truthy(current))) {
      table.set(e.name, v);
      changed = true;
    }
  }
  for (const e of ops.append) {
    const v = render(e, ctx);
    if (v === undefined) continue;
    table.set(e.name, appendValue(table.get(e.name), v));
    changed = true;
  }
  return changed;
}

function transformHeaders(ops: Compiled, ctx: PluginContext): void {
  // kong.request.get_headers(): lower-case names, lists for repeated ones; Host aside.
  const headers = new Map<string, { name: string; value: Value }>();
  const raw = ctx.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const lower = raw[i]!.toLowerCase();
    if (lower === 'host') continue;
    const prev = headers.get(lower);
    headers.set(lower, { name: lower, value: prev === undefined ? raw[i + 1]! : ([] as (string | true)[]).concat(prev.value, raw[i + 1]!) });
  }
  const original = new Map([...headers].map(([k, v]) => [k, v.value]));
  const removed = new Set<string>();
  for (const e of ops.remove) if (headers.delete(e.name.toLowerCase())) removed.add(e.name.toLowerCase());
  for (const e of ops.rename) {
    const to = render(e, ctx);
    if (to === undefined) continue;
    const from = e.name.toLowerCase();
    const entry = headers.get(from);
    if (entry === undefined || e.name === to) continue;
    headers.delete(from);
    headers.set(to.toLowerCase(), { name: to, value: entry.value });
    if (from !== to.toLowerCase()) removed.add(from);
  }
  for (const e of ops.replace) {
    const v = render(e, ctx);
    const lower = e.name.toLowerCase();
    if (v === undefined) continue;
    if (lower === 'host') ctx.setUpstreamHost(v);
    else if (headers.has(lower)) headers.set(lower, { name: headers.get(lower)!.name, value: v });
  }
  for (const e of ops.add) {
    const v = render(e, ctx);
    const lower = e.name.toLowerCase();
    if (v !== undefined && !headers.has(lower) && lower !== 'host') headers.set(lower, { name: e.name, value: v });
  }
  for (const e of ops.append) {
    const v = render(e, ctx);
    const lower = e.name.toLowerCase();
    if (v === undefined || lower === 'host') continue;
    const prev = headers.get(lower);
    headers.set(lower, { name: e.name, value: appendValue(prev?.value, v) as (string | true)[] });
  }
  for (const name of removed) if (!headers.has(name)) ctx.clearHeader(name);
  for (const [lower, { name, value }] of headers) {
    if (original.get(lower) === value && name === lower) continue;
    ctx.setHeader(name, typeof value === 'string' ? value : ([] as (string | true)[]).concat(value).map(String));
  }
}

function transformQuery(ops: Compiled, ctx: PluginContext): void {
  const query = new Map<string, unknown>();
  for (const [k, v] of ctx.queryArgs()) {
    const prev = query.get(k);
    query.set(k, prev === undefined ? v : ([] as unknown[]).concat(prev, v));
  }
  applyOps(query, ops, ctx, true, false);
  // kong.service.request.set_query: names in lexicographical order.
  ctx.queryOverride = encodeArgs([...query].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) as [string, Value][]);
}

function transformBody(ops: Compiled, ctx: PluginContext, kind: 'json' | 'form_encoded', body: Buffer): Buffer | undefined {
  const hasBody = body.length > 0;
  if (kind === 'json') {
    let parsed: unknown = {};
    if (hasBody) {
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        return undefined;
      }
    }
    if (!isJsonObject(parsed)) return undefined;
    const table = new Map(Object.entries(parsed));
    return applyOps(table, ops, ctx, hasBody, false) ? Buffer.from(JSON.stringify(Object.fromEntries(table))) : undefined;
  }
  const table = decodeForm(body.toString('latin1'));
  return applyOps(table, ops, ctx, hasBody, true) ? Buffer.from(encodeArgs(table as Map<string, Value>), 'latin1') : undefined;
}

/** request-transformer, PRIORITY 801. */
export const REQUEST_TRANSFORMER_HANDLER: PluginHandler = {
  name: REQUEST_TRANSFORMER_SCHEMA.name,
  priority: REQUEST_TRANSFORMER_SCHEMA.priority,
  build(config) {
    const conf = config as RequestTransformerConfig;
    const headers = section(conf, 'headers');
    const query = section(conf, 'querystring');
    const body = section(conf, 'body');
    const uri = conf.replace.uri === null ? undefined : compileTemplate(conf.replace.uri);
    const method = conf.http_method ?? undefined;
    const toQueryMethod = method === 'GET' || method === 'HEAD' || method === 'TRACE';
    return {
      access(ctx) {
        if (uri !== undefined && typeof uri !== 'string') {
          const path = renderTemplate(uri, ctx);
          // kong.service.request.set_path refuses (a 500) a path that does not start with '/'.
          if (!path.startsWith('/')) throw new TypeError('request-transformer: path must start with /');
          ctx.upstreamPath = path;
        }
        if (method !== undefined) ctx.upstreamMethod = method;
        if (!empty(headers)) transformHeaders(headers, ctx);
        const kind = bodyKind(ctx.firstHeader('Content-Type'));
        const bodyEdits = kind !== undefined && kind !== 'multi_part' && !empty(body);
        // A form body moves into the query string when the method becomes GET, HEAD or TRACE.
        const bodyToQuery = toQueryMethod && kind === 'form_encoded';
        if (!empty(query)) transformQuery(query, ctx);
        if (!bodyEdits && !bodyToQuery) return undefined;
        ctx.requestBodyTransform = (raw) => {
          if (bodyToQuery && raw.length > 0) {
            const params = encodeArgs(decodeForm(raw.toString('latin1')) as Map<string, Value>);
            const current = ctx.upstreamQuery();
            if (params !== '') ctx.queryOverride = current === '' ? params : `${current}&${params}`;
          }
          return bodyEdits ? transformBody(body, ctx, kind, raw) : undefined;
        };
        return undefined;
      },
    };
  },
};
