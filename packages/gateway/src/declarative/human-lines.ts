// Errors for humans: one `FILE:LINE:COL: where: message` line per leaf of Kong's error tree,
// placed on the YAML node the message is about (a missing key points at its entity).
import type { ConfigDocument } from './read-document.ts';
import type { ErrorPlaces } from './resolve-entities.ts';
import type { ErrValue, Input } from './schema.ts';

const isRecord = (v: unknown): v is Input => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The error tree as human lines, in tree order. */
export function humanLines(errors: ErrValue, input: Input, doc: ConfigDocument, fileName: string, places?: ErrorPlaces): string[] {
  const lines: string[] = [];
  const walk = (node: ErrValue, docPath: (string | number)[], label: string, value: unknown): void => {
    if (typeof node === 'string') {
      const { line, col } = doc.locate(docPath);
      const where = entityLabel(label, value);
      lines.push(`${fileName}:${line}:${col}: ${where === '' ? '' : `${where}: `}${node}`);
      return;
    }
    // A list of messages (`@entity`, reference errors): one line each, same place.
    const isMessageList = [...node].every(([k, v]) => typeof k === 'number' && typeof v === 'string') && !Array.isArray(value);
    for (const [key, child] of node) {
      if (key === '@entity' || isMessageList) {
        walk(child, docPath, label, value);
      } else if (typeof key === 'number') {
        const i = key - 1;
        const item: unknown = Array.isArray(value) ? value[i] : undefined;
        walk(child, [...docPath, i], `${label}[${i}]`, item);
      } else if (Array.isArray(value) && !/^\d+$/.test(key)) {
        // A reference error keyed by the entity's name or id (declarative_config.lua validate_references).
        const i = places?.get(`${String(docPath[docPath.length - 1])}:${key}`) ?? value.findIndex((e) => isRecord(e) && (e.name === key || e.username === key || e.id === key));
        const field = firstForeignField(value[i]);
        const path = i < 0 ? docPath : [...docPath, i, ...(field === undefined ? [] : [field])];
        walk(child, path, `${label}[${i}]${field === undefined ? '' : `.${field}`}`, undefined);
      } else {
        const next: unknown = isRecord(value) ? value[key] : undefined;
        walk(child, [...docPath, key], label === '' ? key : `${label}.${key}`, next);
      }
    }
  };
  walk(errors, [], '', input);
  return lines;
}

function entityLabel(label: string, entity: unknown): string {
  if (!isRecord(entity)) return label;
  const name = typeof entity.name === 'string' ? entity.name : typeof entity.username === 'string' ? entity.username : typeof entity.id === 'string' ? entity.id : undefined;
  return name === undefined ? label : `${label} (${name})`;
}

function firstForeignField(entity: unknown): string | undefined {
  if (!isRecord(entity)) return undefined;
  return ['service', 'route', 'consumer', 'upstream', 'certificate', 'client_certificate'].find((f) => entity[f] !== undefined);
}
