import { EsignError } from '../../errors.ts';

export type RawQuery = Record<string, string | string[] | undefined>;

/**
 * The query parameters of a users, groups or profiles call: those the route honours, by name;
 * any other parameter the SDK can send is refused by name (never a 200 that ignored it).
 */
export function readQuery(query: RawQuery, honoured: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const refused: string[] = [];
  for (const [name, raw] of Object.entries(query)) {
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value === undefined || value === '') continue;
    if (honoured.includes(name)) out[name] = value;
    else refused.push(name);
  }
  if (refused.length > 0) throw new EsignError('INVALID_REQUEST_PARAMETER', `not supported: ${refused.join(', ')} (this call honours ${honoured.join(', ') || 'no parameters'}).`);
  return out;
}

/** count and start_position as DocuSign pages lists (count 1-100, default 100). */
export function paging(q: Record<string, string>): { start: number; count: number } {
  const start = q.start_position === undefined ? 0 : Number(q.start_position);
  const count = q.count === undefined ? 100 : Number(q.count);
  if (!Number.isInteger(start) || start < 0) throw new EsignError('INVALID_REQUEST_PARAMETER', `start_position must be a whole number, got "${q.start_position}".`);
  if (!Number.isInteger(count) || count < 1 || count > 100) throw new EsignError('INVALID_REQUEST_PARAMETER', `count must be from 1 to 100, got "${q.count}".`);
  return { start, count };
}

/** `include` of the profile calls: only user_count, which every answer carries. */
export function profileInclude(q: Record<string, string>): void {
  const unknown = (q.include ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '' && s !== 'user_count');
  if (unknown.length > 0) throw new EsignError('INVALID_REQUEST_PARAMETER', `include: not supported: ${unknown.join(', ')} (every profile carries its settings and user_count).`);
}
