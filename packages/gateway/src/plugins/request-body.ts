// Kong's kong.request.get_body and kong.service.request.set_body (kong/pdk/request.lua,
// kong/pdk/service/request.lua): the request body as a table of arguments by its MIME type
// (form-urlencoded, JSON, multipart), and that table written back in the same MIME type.
// Bodies are handled as latin1 strings so that every byte survives the round trip.
import { encodeArgs, type PluginContext } from './plugin-context.ts';

/** The MIME types get_body understands, by Kong's names. */
export type BodyKind = 'form_encoded' | 'json' | 'multi_part';

/** A parsed body: its arguments in order (a list when a name repeats), and how to write it back. */
export type BodyArgs = {
  readonly kind: BodyKind;
  readonly args: Map<string, unknown>;
  /** The client's Content-Type, which set_body keeps (multipart: its boundary). */
  readonly mime: string;
};

/**
 * get_body's test: the lower-cased Content-Type up to `;` must start with one of the three
 * types (`application/json-patch` counts as JSON, as in Kong).
 */
export function bodyKindOf(contentType: string | undefined): BodyKind | undefined {
  if (contentType === undefined) return undefined;
  let ct = contentType.toLowerCase();
  const semi = ct.indexOf(';');
  if (semi !== -1) ct = ct.slice(0, semi);
  if (ct.startsWith('application/x-www-form-urlencoded')) return 'form_encoded';
  if (ct.startsWith('application/json')) return 'json';
  if (ct.startsWith('multipart/form-data')) return 'multi_part';
  return undefined;
}

const dec = (s: string): string => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
};

/** ngx.decode_args: `+` and %XX decoded, a name without `=` is true, repeated names make a list. */
export function decodeForm(body: string): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const part of body.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const [k, v] = eq === -1 ? [dec(part), true as const] : [dec(part.slice(0, eq)), dec(part.slice(eq + 1))];
    const prev = out.get(k);
    out.set(k, prev === undefined ? v : ([] as unknown[]).concat(prev, v));
  }
  return out;
}

/** The boundary parameter of a multipart Content-Type, quoted or not. */
function boundaryOf(mime: string): string | undefined {
  const at = mime.indexOf('boundary=');
  if (at === -1) return undefined;
  let b = mime.slice(at + 9);
  if (b.startsWith('"')) {
    const end = b.indexOf('"', 1);
    b = end === -1 ? b.slice(1) : b.slice(1, end);
  } else {
    const semi = b.indexOf(';');
    if (semi !== -1) b = b.slice(0, semi);
  }
  return b === '' ? undefined : b;
}

/**
 * lua-multipart's get_all_with_arrays: each part's value by its Content-Disposition name (a file
 * part's content as well), a list when a name repeats; undefined when the body is not multipart.
 */
function decodeMultipart(body: string, mime: string): Map<string, unknown> | undefined {
  const boundary = boundaryOf(mime);
  if (boundary === undefined) return undefined;
  const chunks = body.split(`--${boundary}`);
  if (chunks.length < 2) return undefined;
  const out = new Map<string, unknown>();
  for (const chunk of chunks.slice(1)) {
    if (chunk.startsWith('--')) break;
    const part = chunk.startsWith('\r\n') ? chunk.slice(2) : chunk;
    const headEnd = part.indexOf('\r\n\r\n');
    if (headEnd === -1) continue;
    const disposition = /^content-disposition:[^\r\n]*?;\s*name=(?:"([^"\r\n]*)"|([^;\s]+))/im.exec(part.slice(0, headEnd));
    if (disposition === null) continue;
    const name = disposition[1] ?? disposition[2]!;
    const value = part.slice(headEnd + 4).replace(/\r\n$/, '');
    const prev = out.get(name);
    out.set(name, prev === undefined ? value : ([] as unknown[]).concat(prev, value));
  }
  return out;
}

/**
 * kong.request.get_body() as the authentication plugins call it: the arguments, or undefined
 * where Kong returns an error (no or another Content-Type, JSON that is not an object or array,
 * a multipart body without its boundary) and the plugin goes on with an empty table.
 */
export function parseBody(raw: Buffer, contentType: string | undefined): BodyArgs | undefined {
  const kind = bodyKindOf(contentType);
  if (kind === undefined) return undefined;
  const mime = contentType!;
  if (kind === 'form_encoded') return { kind, args: decodeForm(raw.toString('latin1')), mime };
  if (kind === 'multi_part') {
    const args = decodeMultipart(raw.toString('latin1'), mime);
    return args === undefined ? undefined : { kind, args, mime };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
  // A JSON array is a Lua table too, without named fields: nothing is found in it.
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  return { kind, args: new Map(Array.isArray(parsed) ? [] : Object.entries(parsed)), mime };
}

/**
 * kong.request.get_body() on the client's body, read (bounded) the first time it is asked for.
 * A body of another type is never read (get_body fails before reading it): it still streams.
 */
export function requestBodyArgs(ctx: PluginContext): BodyArgs | undefined | Promise<BodyArgs | undefined> {
  const contentType = ctx.firstHeader('Content-Type');
  if (bodyKindOf(contentType) === undefined) return undefined;
  const raw = ctx.rawBody();
  if (!(raw instanceof Promise)) return raw === undefined ? undefined : parseBody(raw, contentType);
  return raw.then((b) => (b === undefined ? undefined : parseBody(b, contentType)));
}

/** A form value as ngx.encode_args takes it: strings, `true` for a bare name, lists repeated. */
type FormValue = string | true | readonly (string | true)[];

/**
 * kong.service.request.set_body: the arguments written back in the body's MIME type and made
 * the upstream body. Forms: each name encoded, the pieces sorted (make_ordered_args); JSON:
 * the object; multipart: one part per value, names sorted, the client's boundary kept.
 */
export function setRequestBody(ctx: PluginContext, body: BodyArgs): void {
  if (body.kind === 'form_encoded') {
    const pieces = [...body.args].map(([k, v]) => encodeArgs([[k, v as FormValue]])).filter((s) => s !== '');
    pieces.sort();
    ctx.upstreamBody = Buffer.from(pieces.join('&'), 'latin1');
    return;
  }
  if (body.kind === 'json') {
    ctx.upstreamBody = Buffer.from(JSON.stringify(Object.fromEntries(body.args)), 'utf8');
    return;
  }
  const boundary = boundaryOf(body.mime)!;
  let out = '';
  for (const name of [...body.args.keys()].sort()) {
    const value = body.args.get(name);
    for (const one of Array.isArray(value) ? (value as unknown[]) : [value]) {
      out += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${String(one)}\r\n`;
    }
  }
  ctx.upstreamBody = Buffer.from(`${out}--${boundary}--\r\n`, 'latin1');
  ctx.setHeader('Content-Type', `multipart/form-data; boundary=${boundary}`);
}
