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
      } else if (docPath.length === 1 && places?.has(`${String(docPath[0])}:${key}`) === true) {
        // An error keyed by the entity's name or id (references, unique fields): at the entity,
        // on the field the message names.
        const path = (places.get(`${String(docPath[0])}:${key}`) as readonly (string | number)[]).map((x) => (typeof x === 'number' ? x - 1 : x));
        const entity = path.reduce<unknown>((v, k) => (isRecord(v) ? v[k] : Array.isArray(v) ? v[k as number] : undefined), input);
        const messages = typeof child === 'string' ? [child] : [...child.values()].filter((m): m is string => typeof m === 'string');
        for (const message of messages) {
          const field = namedField(message, entity);
          const at = field === undefined ? path : [...path, field];
          const { line, col } = doc.locate(at);
          lines.push(`${fileName}:${line}:${col}: ${pathLabel(at)}: ${message}`);
        }
      } else if (Array.isArray(value) && !/^\d+$/.test(key)) {
        // A name- or id-keyed error with no recorded place: the entity of that name, or id.
        const i = value.findIndex((e) => isRecord(e) && (e.name === key || e.username === key || e.id === key));
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

// `routes[0].service`, `services[1].routes[0].service`.
function pathLabel(path: readonly (string | number)[]): string {
  return path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('');
}

// The field an "invalid reference '<field>: …'" or "… entity with <field> set to …" is about.
function namedField(message: string, entity: unknown): string | undefined {
  const m = /^invalid reference '([a-z_]+): /.exec(message) ?? /^uniqueness violation: '[a-z_]+' entity with ([a-z_]+) set to /.exec(message);
  const field = m?.[1];
  return field !== undefined && isRecord(entity) && entity[field] !== undefined ? field : undefined;
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
