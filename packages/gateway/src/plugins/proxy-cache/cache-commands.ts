// What the admin API's /proxy-cache endpoints (kong/plugins/proxy-cache/api.lua) do to the
// caches of one process: look an entry up, purge it, or flush everything. The primary runs it
// in each worker over IPC (cluster/cache-messages.ts); a single-process gateway in process.
import { allCacheDictionaries, DICTIONARY_SIZES, cacheDictionary } from './cache-dictionaries.ts';
import type { CachedResponse, CacheDictionary } from './cache-dictionary.ts';

/** One command; `dictionary` limits a lookup to one plugin's dictionary (…/{plugin}/caches/{key}). */
export type CacheCommand =
  | { readonly op: 'flush' }
  | { readonly op: 'get' | 'purge'; readonly key: string; readonly dictionary?: string | undefined };

/** A process's answer: the entry as Kong's memory strategy returns it, when found. */
export type CacheReply = { readonly found: boolean; readonly entry?: Record<string, unknown> };

// The memory strategy's request object as GET /proxy-cache/{key} shows it (headers by name).
function view(entry: CachedResponse): Record<string, unknown> {
  const headers: Record<string, string | string[]> = {};
  for (let i = 0; i < entry.headers.length; i += 2) {
    const name = entry.headers[i]!;
    const prev = headers[name];
    headers[name] = prev === undefined ? entry.headers[i + 1]! : [...(Array.isArray(prev) ? prev : [prev]), entry.headers[i + 1]!];
  }
  return { status: entry.status, headers, body: entry.body.toString('utf8'), body_len: entry.body.length, timestamp: entry.timestamp, ttl: entry.ttl, version: 1 };
}

/** Runs a command on this process's dictionaries. */
export function runCacheCommand(command: CacheCommand, nowMs: number): CacheReply {
  if (command.op === 'flush') {
    for (const d of allCacheDictionaries()) d.flush();
    return { found: true };
  }
  const dictionaries: CacheDictionary[] = command.dictionary === undefined
    ? [...allCacheDictionaries()]
    : DICTIONARY_SIZES.has(command.dictionary) ? [cacheDictionary(command.dictionary)] : [];
  for (const d of dictionaries) {
    const entry = d.get(command.key, nowMs);
    if (entry === undefined) continue;
    if (command.op === 'purge') d.delete(command.key);
    return { found: true, entry: view(entry) };
  }
  return { found: false };
}
