// kong/plugins/response-transformer/body_transformer.lua: the JSON body edited in Kong's order
// (remove, rename, replace, add, append), values typed by json_types.
import { appendValue, isJsonObject, splitPair } from '../transformer-pairs.ts';

type JsonOps = { readonly json: readonly string[]; readonly json_types?: readonly string[] };
export type JsonBodyConfig = { readonly remove: JsonOps; readonly rename: JsonOps; readonly replace: JsonOps; readonly add: JsonOps; readonly append: JsonOps };

/** Kong's json_value: the config string as its JSON string form without the quotes, then cast by json_type. */
function jsonValue(value: string, type: string | undefined): unknown {
  // cjson escapes control characters, `"` and `\`; Kong then unescapes `\"` (and cjson's `\/`).
  const v = JSON.stringify(value).slice(1, -1).replace(/\\"/g, '"');
  if (type === 'number') {
    const n = Number(v);
    return v.trim() === '' || Number.isNaN(n) ? undefined : n;
  }
  if (type === 'boolean') return v === 'true';
  return v;
}

// Lua truthiness of a decoded JSON value: only absent and false are falsy (null is cjson.null, truthy).
const truthy = (v: unknown): boolean => v !== undefined && v !== false;

/** Whether any JSON edit is configured (is_body_transform_set). */
export function hasJsonOps(conf: JsonBodyConfig): boolean {
  return conf.remove.json.length + conf.rename.json.length + conf.replace.json.length + conf.add.json.length + conf.append.json.length > 0;
}

/** The transformed body, or undefined when it is not a JSON object (left as it was; Kong logs "failed parsing json body"). */
export function transformJsonBody(conf: JsonBodyConfig, text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isJsonObject(body)) return undefined;
  for (const entry of conf.remove.json) delete body[splitPair(entry)[0]];
  for (const entry of conf.rename.json) {
    const [from, to] = splitPair(entry);
    if (body[from] !== undefined && to !== undefined) {
      const v = body[from];
      body[to] = v;
      delete body[from];
    }
  }
  conf.replace.json.forEach((entry, i) => {
    const [name, raw] = splitPair(entry);
    const v = raw === undefined ? undefined : jsonValue(raw, conf.replace.json_types?.[i]);
    if (truthy(body[name]) && v !== undefined) body[name] = v;
  });
  conf.add.json.forEach((entry, i) => {
    const [name, raw] = splitPair(entry);
    const v = raw === undefined ? undefined : jsonValue(raw, conf.add.json_types?.[i]);
    if (!truthy(body[name]) && v !== undefined) body[name] = v;
  });
  conf.append.json.forEach((entry, i) => {
    const [name, raw] = splitPair(entry);
    const v = raw === undefined ? undefined : jsonValue(raw, conf.append.json_types?.[i]);
    if (v !== undefined) body[name] = appendValue(body[name], v);
  });
  return JSON.stringify(body);
}
