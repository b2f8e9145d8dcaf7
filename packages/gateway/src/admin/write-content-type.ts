// What an admin write may carry. Browsers send form, multipart and text/plain bodies cross-site
// without a CORS preflight ("simple requests"); JSON and YAML need one, which this API never
// grants. So without an admin token only those are taken. A request carrying the token header
// is never simple, so with a token Kong's own rule applies (kong/api/api_helpers.lua
// before_filter: JSON, urlencoded and multipart forms, YAML on /config; 415 otherwise).
import type { IncomingHttpHeaders } from 'node:http';
import { GatewayError } from '../errors.ts';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const YAML = ['application/yaml', 'application/x-yaml', 'text/yaml', 'text/x-yaml'];
const FORMS = ['application/x-www-form-urlencoded', 'multipart/form-data'];

/** The request parts the check reads. */
export type WriteRequest = {
  readonly method: string;
  readonly pathname: string;
  readonly headers: IncomingHttpHeaders;
  /** node's raw header list (names and values alternate): repeated headers stay visible. */
  readonly rawHeaders: readonly string[];
};

function acceptedTypes(pathname: string, formsAllowed: boolean): readonly string[] {
  const config = pathname === '/config' || pathname === '/config/';
  return ['application/json', ...(config ? YAML : []), ...(formsAllowed ? FORMS : [])];
}

/**
 * Throws Kong's 400 for repeated Content-Type headers, and 415 for a write whose Content-Type
 * is not accepted (`formsAllowed`: the request carried a valid admin token), or whose body has
 * no Content-Type. A write with neither body nor Content-Type passes (`curl -X POST …/unhealthy`).
 */
export function checkWriteContentType(req: WriteRequest, formsAllowed: boolean): void {
  if (!WRITES.has(req.method)) return;
  let count = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === 'content-type') count++;
  if (count > 1) throw new GatewayError('MULTIPLE_CONTENT_TYPES');
  const header = req.headers['content-type'];
  const type = header?.split(';')[0]!.trim().toLowerCase();
  if (type === undefined) {
    const length = req.headers['content-length'];
    if (req.headers['transfer-encoding'] === undefined && (length === undefined || length === '0')) return;
  }
  const accepted = acceptedTypes(req.pathname, formsAllowed);
  if (type !== undefined && accepted.includes(type)) return;
  const example = req.pathname.startsWith('/config') ? ", e.g. curl -H 'Content-Type: application/yaml' --data-binary @kong.yml" : '';
  const kinds = formsAllowed ? 'JSON, YAML or a form' : 'JSON or YAML';
  throw new GatewayError('UNSUPPORTED_MEDIA_TYPE', {
    message: `Unsupported Media Type: ${type || 'no Content-Type'}; send ${accepted.length > 1 ? kinds : 'JSON'} (${accepted.join(', ')})${example}`,
  });
}
