// How kong/plugins/cors/handler.lua compares a request's Origin with config.origins: flat
// entries by their normalised scheme://host[:port], regex entries (anything outside
// [A-Za-z0-9.:/-]) anchored at both ends, against the host alone when the entry has no ':'.

/** An Origin (or a flat config entry) as socket.url parses it: the comparable domain and the host. */
export type NormalizedOrigin = { readonly domain: string; readonly host: string };

/** Kong's normalize_origin: scheme://host[:port] with the scheme's default port dropped; as is without an authority. */
export function normalizeOrigin(origin: string): NormalizedOrigin {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)/.exec(origin);
  if (m === null) return { domain: origin, host: origin };
  const scheme = m[1]!;
  const authority = m[2]!.slice(m[2]!.lastIndexOf('@') + 1);
  const pm = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(authority);
  const host = pm?.[1] ?? authority;
  let port = pm?.[2];
  if (port === '' || (scheme === 'http' && port === '80') || (scheme === 'https' && port === '443')) port = undefined;
  return { domain: `${scheme}://${host}${port === undefined ? '' : ':' + port}`, host };
}

/**
 * A PCRE origin pattern as a JS RegExp, or undefined when it does not compile. The patterns
 * Kong users write (classes, groups, `(?:…)`, `\\.`) mean the same in both.
 */
export function pcreToRegExp(pattern: string, anchored = false): RegExp | undefined {
  try {
    return new RegExp(anchored ? `^(?:${pattern})` : pattern);
  } catch {
    return undefined;
  }
}

type CompiledOrigin = { readonly regex: RegExp; readonly byHost: boolean } | { readonly domain: string; readonly byHost: boolean };

const LITERAL = /^[A-Za-z0-9.:/-]+$/;

/** config.origins compiled once per plugin instance. */
export class CorsOrigins {
  /** Empty, or just `*`: every origin (Access-Control-Allow-Origin: *). */
  readonly allowAll: boolean;
  /** A single literal entry: sent as is whatever the Origin. */
  readonly single: string | undefined;
  /** `*` among several entries: every origin (decided when an Origin is given, as Kong does). */
  readonly hasAsterisk: boolean;
  readonly #entries: CompiledOrigin[] = [];
  // Kong keeps an LRU of parsed request origins; a small bounded map does the same here.
  readonly #seen = new Map<string, NormalizedOrigin>();

  constructor(origins: readonly string[] | null) {
    const list = origins ?? [];
    this.allowAll = list.length === 0 || (list.length === 1 && list[0] === '*');
    this.single = list.length === 1 && LITERAL.test(list[0]!) ? list[0] : undefined;
    this.hasAsterisk = list.includes('*');
    for (const entry of list) {
      if (entry === '*') continue;
      const byHost = !entry.includes(':');
      if (LITERAL.test(entry)) {
        this.#entries.push({ domain: normalizeOrigin(entry).domain, byHost });
      } else {
        // Kong 0.x did not anchor: a trailing $ is added, a leading ^ dropped, the match anchored.
        let source = entry.endsWith('$') ? entry : entry + '$';
        if (source.startsWith('^')) source = source.slice(1);
        const regex = pcreToRegExp(source, true);
        if (regex !== undefined) this.#entries.push({ regex, byHost });
      }
    }
  }

  /** The normalised Origin's domain when it is allowed, else undefined. */
  match(origin: string): string | undefined {
    let n = this.#seen.get(origin);
    if (n === undefined) {
      n = normalizeOrigin(origin);
      if (this.#seen.size >= 1000) this.#seen.clear();
      this.#seen.set(origin, n);
    }
    for (const e of this.#entries) {
      const found = 'regex' in e ? e.regex.test(e.byHost ? n.host : n.domain) : n.domain === e.domain;
      if (found) return n.domain;
    }
    return undefined;
  }
}
