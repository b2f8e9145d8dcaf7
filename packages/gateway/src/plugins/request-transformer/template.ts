// request-transformer's templates (kong/plugins/request-transformer/access.lua param_value):
// in Kong `$(…)` holds any Lua expression, rendered by pl.template in a sandbox. This gateway
// runs no Lua: it renders the forms Kong's documentation shows — `$(headers.name)`,
// `$(headers["name"])`, the same on query_params, uri_captures and shared, each optionally
// `or 'default'` — and refuses every other expression by name when the configuration loads.
import type { PluginContext } from '../plugin-context.ts';

type Namespace = 'headers' | 'query_params' | 'uri_captures' | 'shared';
type Expr = { readonly ns: Namespace; readonly key: string; readonly fallback: string | undefined };
/** A compiled template: literal text and expressions, in order. */
export type Template = readonly (string | Expr)[];

const NAMESPACES = new Set<string>(['headers', 'query_params', 'uri_captures', 'shared']);
const QUOTED = String.raw`(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")`;
const EXPR = new RegExp(String.raw`^\s*([a-z_]+)\s*(?:\.\s*([A-Za-z_][A-Za-z0-9_]*)|\[\s*(?:${QUOTED}|(\d+))\s*\])\s*(?:or\s+(?:${QUOTED}|(-?\d+(?:\.\d+)?)))?\s*$`);

const unescape = (s: string): string => s.replace(/\\(.)/g, '$1');

/** Finds the `)` closing the `$(` at `open` (parentheses balanced, quoted strings skipped); -1 if none. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
    } else if (c === '(') {
      depth++;
    } else if (c === ')' && --depth === 0) {
      return i;
    }
  }
  return -1;
}

/** Compiles a value; a string is the refusal (an expression this gateway does not evaluate). */
export function compileTemplate(value: string): Template | string {
  const parts: (string | Expr)[] = [];
  let at = 0;
  for (let start = value.indexOf('$(', at); start !== -1; start = value.indexOf('$(', at)) {
    const end = closing(value, start + 1);
    if (end === -1) return `unclosed '$(' in '${value}'`;
    const source = value.slice(start + 2, end);
    const m = EXPR.exec(source);
    if (m === null || !NAMESPACES.has(m[1]!)) {
      return `the expression '$(${source})' is not supported by this gateway (it runs no Lua: only $(headers.name), $(query_params.name), $(uri_captures.name), $(shared.name), with ["name"] and an optional or 'default')`;
    }
    if (start > at) parts.push(value.slice(at, start));
    const key = m[2] ?? (m[3] !== undefined ? unescape(m[3]) : m[4] !== undefined ? unescape(m[4]) : m[5]!);
    const fallback = m[6] !== undefined ? unescape(m[6]) : m[7] !== undefined ? unescape(m[7]) : m[8];
    parts.push({ ns: m[1] as Namespace, key, fallback });
    at = end + 1;
  }
  if (at < value.length) parts.push(value.slice(at));
  return parts;
}

/** A template that is plain text needs no rendering. */
export const isLiteral = (t: Template): boolean => t.every((p) => typeof p === 'string');

function lookup(ctx: PluginContext, e: Expr): unknown {
  switch (e.ns) {
    case 'headers':
      return ctx.header(e.key);
    case 'query_params':
      return ctx.queryArg(e.key);
    case 'uri_captures':
      return ctx.uriCaptures?.[e.key];
    case 'shared':
      return undefined;
  }
}

/**
 * Renders against the request as received. Absent values render as '' (pl.template's `or ''`);
 * a repeated header or argument (a Lua table) cannot be concatenated: Kong fails the request
 * with a 500, and so does this (the plugin throws).
 */
export function renderTemplate(t: Template, ctx: PluginContext): string {
  let out = '';
  for (const p of t) {
    if (typeof p === 'string') {
      out += p;
      continue;
    }
    const v = lookup(ctx, p) ?? p.fallback;
    if (v === undefined) continue;
    if (typeof v !== 'string') throw new TypeError(`request-transformer: $(${p.ns}.${p.key}) is not a string`);
    out += v;
  }
  return out;
}
