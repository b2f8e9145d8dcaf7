// kong/router/utils.lua sanitize_uri_postfix: the rest of a normalised path after the route's
// prefix may still begin with a dot segment ("/foo.." matches the prefix "/foo"); dropping it
// keeps the request inside the service's path.
function sanitizePostfix(postfix: string): string {
  if (postfix === '.' || postfix === '..') return '';
  if (postfix.startsWith('./')) return postfix.slice(2);
  if (postfix.startsWith('../')) return postfix.slice(3);
  return postfix;
}

/**
 * The path sent upstream, Kong's `path_handling: v0` (kong/router/utils.lua get_upstream_uri_v0;
 * the table in spec/fixtures/router_path_handling_tests.lua). `servicePath` null means "/";
 * `matched` is the part of `requestPath` the route's path matched (the prefix, or the whole regex
 * match); the query string is not part of any argument. `requestPath` is the normalised path.
 */
export function composeUpstreamPath(
  servicePath: string | null,
  requestPath: string,
  matched: string,
  stripPath: boolean,
): string {
  const base = servicePath ?? '/';
  const baseEndsWithSlash = base.endsWith('/');
  if (!stripPath) {
    if (baseEndsWithSlash) return base + requestPath.slice(1);
    return requestPath === '/' ? base : base + requestPath;
  }
  const postfix = sanitizePostfix(requestPath.slice(matched.length));
  if (baseEndsWithSlash) {
    if (postfix === '') {
      if (base === '/') return '/';
      return requestPath.endsWith('/') ? base : base.slice(0, -1);
    }
    // The postfix brings its own slash: drop the base's to avoid "//".
    return postfix.startsWith('/') ? base.slice(0, -1) + postfix : base + postfix;
  }
  if (postfix === '') return requestPath.length > 1 && requestPath.endsWith('/') ? base + '/' : base;
  return postfix.startsWith('/') ? base + postfix : base + '/' + postfix;
}
