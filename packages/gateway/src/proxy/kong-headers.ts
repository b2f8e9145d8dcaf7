import { randomBytes } from 'node:crypto';

/**
 * The Kong version this gateway mirrors (Kong 3.10: kong/meta.lua on the Kong sources this gateway follows). Kong puts it in
 * `Via: 1.1 kong/<version>` and `Server: kong/<version>`; Kong users' tooling looks for it.
 */
export const KONG_VERSION = '3.10.0';

/** Via entry added to requests and responses (RFC 9110 §7.6.3; Kong's `server_tokens`). */
export const VIA = `1.1 kong/${KONG_VERSION}`;

/** Server header of responses Kong generates itself (errors). */
export const SERVER = `kong/${KONG_VERSION}`;

/**
 * Kong's request id ($kong_request_id, X-Kong-Request-Id): 32 hex characters. A random
 * per-process prefix and a counter: unique without a random draw per request.
 */
export class RequestIdSource {
  readonly #prefix = randomBytes(8).toString('hex');
  #counter = 0;

  next(): string {
    this.#counter++;
    return this.#prefix + this.#counter.toString(16).padStart(16, '0');
  }
}
