// kong.yml text → plain value, keeping the YAML nodes so that every error can name its
// line:column and the certificate rule can see how a scalar was written (docs/gateway-config.md, "Entities and defaults", certificates).
import { LineCounter, isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Node } from 'yaml';
import { MAX_EXPANDED_CHARS, expansionProblem } from './expanded-size.ts';
import { MAX_NESTING, jsonTooDeep, yamlTooDeep } from './nesting-depth.ts';

/** A parsed configuration document. */
export type ConfigDocument = {
  readonly value: unknown;
  /** True when the text was JSON (the block-scalar rule does not apply). */
  readonly json: boolean;
  /** 1-based line and column of the deepest node on `path` (a missing key points at its parent). */
  locate(path: readonly (string | number)[]): { line: number; col: number };
  /** The YAML style of the scalar at `path` (e.g. "BLOCK_LITERAL"), undefined if not a scalar. */
  scalarStyle(path: readonly (string | number)[]): string | undefined;
};

/** A syntax error: Kong's message plus where it is. */
export class ConfigSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly col: number,
  ) {
    super(message);
  }
}

function child(doc: Document, node: unknown, segment: string | number): unknown {
  const n = isAlias(node) ? node.resolve(doc) : node;
  if (isMap(n)) {
    const pair = n.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === segment);
    return pair === undefined ? undefined : (pair.value ?? pair.key);
  }
  if (isSeq(n) && typeof segment === 'number') return n.items[segment];
  return undefined;
}

/**
 * Parses YAML (or JSON, which Kong tries first) with positions. Throws ConfigSyntaxError.
 * JSON takes JSON.parse (about 20x faster than the YAML composer); its YAML node tree, needed
 * only to place error lines, is built on first use.
 */
export function readDocument(text: string): ConfigDocument {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return readYaml(text);
    }
    // JSON.parse does not recurse, but everything after it does.
    refuseTooDeep(text, jsonTooDeep(text));
    let yaml: ConfigDocument | undefined;
    const lazy = (): ConfigDocument => (yaml ??= readYaml(text));
    return { value, json: true, locate: (path) => lazy().locate(path), scalarStyle: (path) => lazy().scalarStyle(path) };
  }
  return readYaml(text);
}

/** A ConfigSyntaxError at `offset` when a nesting check found one past the bound. */
function refuseTooDeep(text: string, offset: number | undefined): void {
  if (offset === undefined) return;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  throw new ConfigSyntaxError(`maximum nesting depth (${MAX_NESTING}) exceeded`, line, offset - lineStart + 1);
}

function readYaml(text: string): ConfigDocument {
  // Before the composer, which recurses per level (nesting-depth.ts).
  refuseTooDeep(text, yamlTooDeep(text));
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const first = doc.errors[0];
  if (first !== undefined) {
    const { line, col } = lineCounter.linePos(first.pos[0]);
    throw new ConfigSyntaxError(first.message.split('\n')[0] ?? first.message, line, col);
  }
  // toJS throws on an alias used before its anchor (ReferenceError) and on alias expansion past
  // maxAliasCount (a "billion laughs" document): both are the author's syntax errors, not ours.
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 1000 });
  } catch (e) {
    if (!(e instanceof Error)) throw e;
    throw new ConfigSyntaxError(e.message.split('\n')[0] ?? e.message, 1, 1);
  }
  // maxAliasCount bounds each anchor alone; the whole document, expanded, is bounded here. A
  // file larger than the bound still loads as written (the bound is for what aliases add).
  const problem = expansionProblem(doc, Math.max(MAX_EXPANDED_CHARS, text.length));
  if (problem !== undefined) {
    const { line, col } = lineCounter.linePos(problem.offset);
    throw new ConfigSyntaxError(problem.reason, line, col);
  }
  const nodeAt = (path: readonly (string | number)[]): Node | undefined => {
    let node: unknown = doc.contents;
    let last: unknown = node;
    for (const segment of path) {
      node = child(doc, node, segment);
      if (node === undefined) break;
      last = node;
    }
    return last as Node | undefined;
  };
  return {
    value,
    json: false,
    locate(path) {
      const node = nodeAt(path);
      const offset = node?.range?.[0] ?? 0;
      return lineCounter.linePos(offset);
    },
    scalarStyle(path) {
      let node: unknown = doc.contents;
      for (const segment of path) {
        node = child(doc, node, segment);
        if (node === undefined) return undefined;
      }
      if (isAlias(node)) node = node.resolve(doc);
      return isScalar(node) ? (node.type ?? undefined) : undefined;
    },
  };
}
