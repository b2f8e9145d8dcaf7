// What a YAML document amounts to once its aliases are expanded. toJS shares an anchored value
// between its aliases, but everything after it (validation, the entities, the 201 body's
// JSON.stringify) copies it at each alias: one ~600 KB anchored list aliased by 1000 routes, 643
// KB of text and within the library's per-anchor maxAliasCount, ended the admin process. So the
// document is weighed as expanded, in one pass over its nodes, each anchor weighed once.
import { isAlias, isCollection, isPair, isScalar, type Document, type Node } from 'yaml';
import { MAX_NESTING } from './nesting-depth.ts';

/**
 * The expanded size a document may reach, in source characters: the admin API's body limit
 * (10 MiB), so aliases may make a document as large as one that could have been sent written out.
 */
export const MAX_EXPANDED_CHARS = 10 * 1024 * 1024;

/** Why a document is refused, and the alias (or node) where it went past the bound. */
export type ExpansionProblem = { readonly reason: string; readonly offset: number };

type Weight = { readonly size: number; readonly depth: number };
const IN_PROGRESS: Weight = { size: -1, depth: -1 };
const EMPTY: Weight = { size: 0, depth: 0 };
/** Unwinds the walk at the first problem. */
class Refused extends Error {
  constructor(readonly problem: ExpansionProblem) {
    super(problem.reason);
  }
}

/**
 * The first problem of `doc` expanded, or undefined: more than `maxChars` characters (scalars
 * by their source length, one more per collection item, so a document without aliases weighs
 * no more than its text), more than MAX_NESTING levels through aliases (an alias nests its
 * anchor's levels again), or an alias inside the node it names (a cycle, which no JSON
 * configuration can be). Recurses only as deep as the text nests (nesting-depth.ts bounds
 * that): an alias reads its anchor's weight, taken when the anchor was passed, since an anchor
 * always comes before its aliases.
 */
export function expansionProblem(doc: Document, maxChars: number): ExpansionProblem | undefined {
  const anchors = new Map<string, Weight>();
  const refuse = (reason: string, node: unknown): never => {
    throw new Refused({ reason, offset: (node as Node | null)?.range?.[0] ?? 0 });
  };
  const weigh = (node: unknown): Weight => {
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (target === IN_PROGRESS) refuse(`alias *${node.source} is inside the node it names`, node);
      // An alias to no anchor: toJS has refused it already.
      return target ?? EMPTY;
    }
    if (isScalar(node)) return weighAnchored(node, () => ({ size: (node.range?.[1] ?? 0) - (node.range?.[0] ?? 0), depth: 0 }));
    if (isCollection(node)) {
      return weighAnchored(node, () => {
        let size = 0;
        let depth = 0;
        for (const item of node.items) {
          const parts = isPair(item) ? [item.key, item.value] : [item];
          size += 1;
          for (const part of parts) {
            const w = weigh(part);
            size += w.size;
            if (size > maxChars) refuse(`aliases expand the document past ${maxChars} characters`, part);
            depth = Math.max(depth, w.depth);
          }
        }
        if (depth + 1 > MAX_NESTING) refuse(`maximum nesting depth (${MAX_NESTING}) exceeded`, node);
        return { size, depth: depth + 1 };
      });
    }
    return EMPTY;
  };
  const weighAnchored = (node: Node, measure: () => Weight): Weight => {
    const anchor = (node as { anchor?: string }).anchor;
    if (anchor === undefined) return measure();
    anchors.set(anchor, IN_PROGRESS);
    const weight = measure();
    anchors.set(anchor, weight);
    return weight;
  };
  try {
    weigh(doc.contents);
  } catch (e) {
    if (e instanceof Refused) return e.problem;
    throw e;
  }
  return undefined;
}
