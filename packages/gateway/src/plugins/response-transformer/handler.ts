// kong/plugins/response-transformer/{handler,header_transformer}.lua: response headers edited in
// header_filter (remove, rename, replace, add, append, each decided on the headers as the
// upstream sent them), the JSON body in body_filter, buffered up to a bound.
import type { PluginHandler } from '../plugin-handler.ts';
import type { BodyTransform, ResponseHead } from '../response-head.ts';
import { splitPair } from '../transformer-pairs.ts';
import { hasJsonOps, transformJsonBody, type JsonBodyConfig } from './json-body.ts';
import { RESPONSE_TRANSFORMER_SCHEMA } from './schema.ts';
import { BodyBudget } from '../../proxy/body-budget.ts';

type HeaderOps = { readonly headers: readonly string[] };
type ResponseTransformerConfig = JsonBodyConfig & {
  readonly remove: HeaderOps; readonly rename: HeaderOps; readonly replace: HeaderOps; readonly add: HeaderOps; readonly append: HeaderOps;
};

/**
 * The most body this plugin holds to transform: Kong buffers without a bound. A bigger body
 * cannot get its configured edits, so it is not sent at all: the answer is a 502, never the body
 * unedited (a `remove` of a secret field must not leak it on a large response; docs/gateway-plugins.md).
 */
export const MAX_TRANSFORMED_BODY = 8 * 1024 * 1024;

/** What one process holds of bodies to transform at once: eight whole ones (docs/gateway-plugins.md). */
export const TRANSFORMED_BODY_BUDGET = new BodyBudget(64 * 1024 * 1024);

/**
 * Kong's is_json_body: some comma-separated media type is application/json or a +json suffix of
 * it (application/problem+json; kong/tools/mime_type.lua includes), parameters ignored.
 */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  return contentType.split(',').some((ct) => {
    const [type = '', subtype = ''] = (ct.split(';')[0] ?? '').trim().toLowerCase().split('/');
    return type === 'application' && (subtype === 'json' || subtype.endsWith('+json'));
  });
}

function transformHeaders(conf: ResponseTransformerConfig, head: ResponseHead): void {
  // Every check reads the headers as they were before this plugin (kong.response.get_headers()).
  const before = new ResponseHeadSnapshot(head.headers);
  for (const name of conf.remove.headers) head.remove(name);
  for (const entry of conf.rename.headers) {
    const [from, to] = splitPair(entry);
    const values = before.all(from);
    if (values.length > 0 && to !== undefined) {
      head.remove(to);
      for (const v of values) head.add(to, v);
      head.remove(from);
    }
  }
  for (const entry of conf.replace.headers) {
    const [name, value] = splitPair(entry);
    if (before.has(name) && value !== undefined) head.set(name, value);
  }
  for (const entry of conf.add.headers) {
    const [name, value] = splitPair(entry);
    if (!before.has(name) && value !== undefined) head.set(name, value);
  }
  for (const entry of conf.append.headers) {
    const [name, value] = splitPair(entry);
    if (value !== undefined) head.add(name, value);
  }
}

class ResponseHeadSnapshot {
  readonly #byName = new Map<string, string[]>();
  constructor(raw: readonly string[]) {
    for (let i = 0; i < raw.length; i += 2) {
      const k = raw[i]!.toLowerCase();
      this.#byName.set(k, [...(this.#byName.get(k) ?? []), raw[i + 1]!]);
    }
  }
  all(name: string): string[] {
    return this.#byName.get(name.toLowerCase()) ?? [];
  }
  has(name: string): boolean {
    return this.#byName.has(name.toLowerCase());
  }
}

/**
 * Buffers the body, then sends it transformed (or as it came when it is not a JSON object). What
 * it holds is charged to TRANSFORMED_BODY_BUDGET until release(): the exchange calls that once
 * the client has the body or is gone, since the transformed copy waits in the client's queue
 * until then. When the budget is spent the transform is `refused` (the exchange answers 503);
 * past MAX_TRANSFORMED_BODY it is refused as `tooLarge` (502). A body that is no JSON object
 * streams through as it came.
 */
function jsonBodyTransform(conf: JsonBodyConfig, budget: BodyBudget): BodyTransform {
  let parts: Buffer[] = [];
  let size = 0;
  let charged = 0;
  let refused = false;
  let tooLarge = false;
  // Only a JSON object is edited (transformJsonBody): a body whose first byte past white space
  // is not `{` goes out as it comes, at any size, and is not held.
  let passing = false;
  let sawStart = false;
  // What is held goes (out, or nowhere), and so does its charge.
  const letGo = (): Buffer[] => {
    const held = parts;
    parts = [];
    budget.give(charged);
    charged = 0;
    return held;
  };
  const refuse = (): undefined => {
    refused = true;
    letGo();
    return undefined;
  };
  return {
    holdsBody: true,
    get refused() {
      return refused;
    },
    get tooLarge() {
      return tooLarge;
    },
    write(chunk) {
      if (passing) return chunk;
      if (refused) return undefined;
      if (!sawStart) {
        const start = firstNonSpace(chunk);
        if (start !== undefined) {
          sawStart = true;
          if (start !== 0x7b) {
            passing = true;
            return Buffer.concat([...letGo(), chunk]);
          }
        }
      }
      size += chunk.length;
      if (size > MAX_TRANSFORMED_BODY) {
        tooLarge = true;
        return refuse();
      }
      parts.push(chunk);
      if (!budget.take(chunk.length)) return refuse();
      charged += chunk.length;
      return undefined;
    },
    end() {
      if (passing || refused) return undefined;
      const original = Buffer.concat(parts);
      parts = [];
      const out = transformJsonBody(conf, original.toString('utf8'));
      return out === undefined ? original : Buffer.from(out);
    },
    release() {
      budget.give(charged);
      charged = 0;
    },
  };
}

/** The first byte that is not JSON white space (RFC 8259: space, tab, LF, CR), if any. */
function firstNonSpace(chunk: Buffer): number | undefined {
  for (const byte of chunk) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return byte;
  return undefined;
}

/** response-transformer, PRIORITY 800. */
export const RESPONSE_TRANSFORMER_HANDLER: PluginHandler = {
  name: RESPONSE_TRANSFORMER_SCHEMA.name,
  priority: RESPONSE_TRANSFORMER_SCHEMA.priority,
  build(config) {
    const conf = config as ResponseTransformerConfig;
    const jsonOps = hasJsonOps(conf);
    return {
      headerFilter(_ctx, head) {
        transformHeaders(conf, head);
        // The body is going to change: its length is no longer known.
        if (jsonOps && isJsonContentType(head.get('Content-Type'))) head.remove('Content-Length');
      },
      ...(jsonOps ? {
        bodyFilter(_ctx, head) {
          return isJsonContentType(head.get('Content-Type')) ? jsonBodyTransform(conf, TRANSFORMED_BODY_BUDGET) : undefined;
        },
      } : {}),
    };
  },
};
