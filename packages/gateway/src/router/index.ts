/** Kong's route matcher: hosts, paths (prefix and regex), methods, headers, snis, priority. */
export { Router, type RouteMatch, type RouterEntry, type RouterRequest } from './router.ts';
/** Kong's v0 upstream path composition (strip_path, service path). */
export { composeUpstreamPath } from './compose-upstream-path.ts';
