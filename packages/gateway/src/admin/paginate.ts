// Kong's collection pages (kong/api/endpoints.lua): `{data, next}` with at most `size` items
// (default 100, 1..1000); `next` carries an opaque base64 offset and the size asked for.
import { GatewayError } from '../errors.ts';

const DEFAULT_SIZE = 100;
const MAX_SIZE = 1000;

/** A page of `items` for `path` with the request's `size`/`offset`. */
export function paginate(items: readonly unknown[], path: string, query: URLSearchParams): object {
  const sizeParam = query.get('size');
  let size = DEFAULT_SIZE;
  if (sizeParam !== null) {
    // kong/db/dao/init.lua validate_size_type / validate_size_value.
    size = Number(sizeParam);
    if (sizeParam.trim() === '' || Number.isNaN(size)) throw new GatewayError('INVALID_SIZE', { message: 'size must be a number' });
    if (!Number.isInteger(size) || size < 1 || size > MAX_SIZE) {
      throw new GatewayError('INVALID_SIZE', { message: `size must be an integer between 1 and ${MAX_SIZE}` });
    }
  }
  let start = 0;
  const offset = query.get('offset');
  if (offset !== null) {
    const decoded = /^[A-Za-z0-9+/]+={0,2}$/.test(offset) ? Buffer.from(offset, 'base64').toString('utf8') : '';
    const n = Number(decoded);
    if (decoded === '' || !Number.isInteger(n) || n < 0) {
      throw new GatewayError('INVALID_OFFSET', { message: `'${offset}' is not a valid offset: bad base64 encoding` });
    }
    start = n;
  }
  const data = items.slice(start, start + size);
  if (start + size >= items.length) return { data, next: null };
  const nextOffset = Buffer.from(String(start + size)).toString('base64');
  const sizeArg = sizeParam === null ? '' : `&size=${sizeParam}`;
  return { data, next: `${path}?offset=${encodeURIComponent(nextOffset)}${sizeArg}`, offset: nextOffset };
}
