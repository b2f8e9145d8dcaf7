// Header names the plugins look up, set and remove come from plugin code and configuration: a
// small set, each lower-cased once instead of on every request. Bounded, since some names come
// from requests (hmac-auth's signed header list): past the bound a name is lower-cased each time.
const LOWER = new Map<string, string>();
const MAX = 1024;

/** `name.toLowerCase()`, remembered. */
export function lowerName(name: string): string {
  let lower = LOWER.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    if (LOWER.size < MAX) LOWER.set(name, lower);
  }
  return lower;
}
