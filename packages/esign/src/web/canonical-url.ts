/** A percent-escape of a character that needs none: letters, digits, `-`, `.`, `_`, `~`. */
const ESCAPED_UNRESERVED = /%(?:4[1-9A-F]|5[0-9A]|6[1-9A-F]|7[0-9A]|3[0-9]|2D|2E|5F|7E)/gi;

/**
 * The request target with its path in canonical form (RFC 3986 §6.2.2.2): escapes of unreserved
 * characters decoded, everything else as sent. The router decodes escapes before it matches,
 * so `/%72estapi/…` reaches the `/restapi/…` routes; every check that reads the path as text
 * (the API guard, the console's permission checks, the dev mailbox's loopback rule, the error
 * surface) must see that same spelling, and sees it because Fastify's `rewriteUrl` puts this
 * in `request.url` before any hook runs.
 */
export function canonicalUrl(url: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (!path.includes('%')) return url;
  const canonical = path.replace(ESCAPED_UNRESERVED, (escape) => String.fromCharCode(Number.parseInt(escape.slice(1), 16)));
  return query === -1 ? canonical : canonical + url.slice(query);
}
