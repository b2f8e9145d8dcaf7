// request-termination's `echo` body (kong/plugins/request-termination/handler.lua): the node,
// the request as the PDK reads it (kong.request.*: headers by lower-case name, query arguments,
// the body parsed by its type and raw, the route's captures), and the matched route and service.
import { bodyKindOf, parseBody } from '../request-body.ts';
import { nodeInfo } from '../node-info.ts';
import type { PluginContext } from '../plugin-context.ts';

// A Lua table of values: one value, or a list when the name came several times.
function grouped(pairs: Iterable<readonly [string, string | true]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of pairs) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...(prev as unknown[]), v] : [prev, v];
  }
  return out;
}

function headerPairs(raw: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) out.push([raw[i]!.toLowerCase(), raw[i + 1]!]);
  return out;
}

// kong.request.get_body(): a JSON body as decoded (object or array), form and multipart bodies
// as their arguments; nothing for another type or a body that does not parse.
function parsedBody(raw: Buffer, contentType: string | undefined): unknown {
  if (bodyKindOf(contentType) === 'json') {
    try {
      const v: unknown = JSON.parse(raw.toString('utf8'));
      return typeof v === 'object' && v !== null ? v : undefined;
    } catch {
      return undefined;
    }
  }
  const args = parseBody(raw, contentType);
  return args === undefined ? undefined : Object.fromEntries(args.args);
}

/** The echo for `ctx`; `raw` is the body read (undefined when larger than the proxy holds). */
export function echoOf(ctx: PluginContext, message: string | undefined, raw: Buffer | undefined): Record<string, unknown> {
  const host = ctx.firstHeader('host') ?? '';
  const captures = ctx.uriCaptures ?? {};
  const unnamed: string[] = [];
  const named: Record<string, string> = {};
  for (const [k, v] of Object.entries(captures)) {
    if (v === undefined || k === '0') continue;
    if (/^\d+$/.test(k)) unnamed[Number(k) - 1] = v;
    else named[k] = v;
  }
  const q = ctx.target.indexOf('?');
  const node = nodeInfo();
  return {
    ...(message === undefined ? {} : { message }),
    kong: { node_id: node.id, worker_pid: process.pid, hostname: node.hostname },
    request: {
      scheme: ctx.scheme,
      // ngx.var.host: the Host header without its port, in lower case.
      host: host.replace(/:\d+$/, '').toLowerCase(),
      port: ctx.port,
      headers: grouped(headerPairs(ctx.rawHeaders)),
      query: grouped(ctx.queryArgs()),
      ...(raw === undefined ? {} : { body: parsedBody(raw, ctx.firstHeader('content-type')), raw_body: raw.toString('utf8') }),
      method: ctx.method,
      path: q === -1 ? ctx.target : ctx.target.slice(0, q),
      uri_captures: { named, unnamed },
    },
    matched_route: ctx.route,
    matched_service: ctx.service,
  };
}
