// Which request an esign log line belongs to, in the gateway's terms: the correlation-id
// plugin's header (deploy/kong.yml sets X-Correlation-ID on every request and echoes it to the
// client) and the id the gateway gives every request it proxies (X-Kong-Request-Id, also in the
// gateway's access log as request_id). Both come from the network: only a bounded token of
// printable characters is logged, so a client cannot flood or forge lines through them.
import type { IncomingHttpHeaders } from 'node:http';

/** The request header the correlation-id plugin sets in deploy/kong.yml (its header_name). */
export const CORRELATION_HEADER = 'x-correlation-id';
const KONG_REQUEST_ID_HEADER = 'x-kong-request-id';

// Kong's generators make at most ~60 characters (uuid#counter, tracker); 128 leaves room for a
// client's own ids without letting one grow the logs.
const LOGGABLE = /^[\x21-\x7e]{1,128}$/;

function loggable(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' && LOGGABLE.test(value) ? value : undefined;
}

/** The fields bound to every log line of one request (`correlationId`, `kongRequestId`), when present and well-formed. */
export function requestLogBindings(headers: IncomingHttpHeaders): { correlationId?: string; kongRequestId?: string } {
  const correlationId = loggable(headers[CORRELATION_HEADER]);
  const kongRequestId = loggable(headers[KONG_REQUEST_ID_HEADER]);
  return {
    ...(correlationId === undefined ? {} : { correlationId }),
    ...(kongRequestId === undefined ? {} : { kongRequestId }),
  };
}
