// GET /config: the running configuration as Kong exports it (kong/db/declarative/export.lua):
// `_format_version: "3.0"`, `_transform: false`, every entity at the top level with its id,
// foreign keys as id strings, nulls kept. Certificates come out as block scalars, so the text
// parses back into the same entities.
import { stringify } from 'yaml';
import type { Snapshot } from './types.ts';
import { ENTITY_LISTS } from './types.ts';

const isForeignKey = (v: unknown): v is { id: string } =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 1 && 'id' in v;

const withIdReferences = (entity: object): Record<string, unknown> =>
  Object.fromEntries(Object.entries(entity as Record<string, unknown>).map(([k, v]) => [k, isForeignKey(v) ? v.id : v]));

/** The snapshot as kong.yml text (YAML). */
export function exportConfig(snapshot: Snapshot): string {
  const doc: Record<string, unknown> = { _format_version: '3.0', _transform: false };
  for (const type of ENTITY_LISTS) {
    if (snapshot[type].length > 0) doc[type] = snapshot[type].map(withIdReferences);
  }
  return stringify(doc, { lineWidth: 0, blockQuote: 'literal' });
}
