// The dictionaries proxy-cache's memory strategy may name, with the sizes Kong's nginx template
// gives them (kong/templates/nginx_kong.lua: `kong` 5m; `kong_db_cache` mem_cache_size, 128m by
// default in kong_defaults.lua). Each worker process holds its own (Kong's are shared by a
// node's workers): a dictionary lives as long as the process, so reloads keep what it holds.
import { CacheDictionary } from './cache-dictionary.ts';

const MiB = 1024 * 1024;

/** The dictionary names accepted in `memory.dictionary_name`, and their capacity in bytes. */
export const DICTIONARY_SIZES: ReadonlyMap<string, number> = new Map([
  ['kong_db_cache', 128 * MiB],
  ['kong', 5 * MiB],
]);

const dictionaries = new Map<string, CacheDictionary>();

/** This process's dictionary `name` (one of DICTIONARY_SIZES), created on first use. */
export function cacheDictionary(name: string): CacheDictionary {
  let d = dictionaries.get(name);
  if (d === undefined) {
    const capacity = DICTIONARY_SIZES.get(name);
    if (capacity === undefined) throw new TypeError(`missing shared dict '${name}'`);
    dictionaries.set(name, (d = new CacheDictionary(capacity)));
  }
  return d;
}

/** Every dictionary this process created (the admin API's purges). */
export function allCacheDictionaries(): Iterable<CacheDictionary> {
  return dictionaries.values();
}
