/**
 * A POST (or GET) with one immediate second try when the connection failed before any answer
 * (a reset or refused socket: fetch's TypeError). Timestamp and OCSP requests and CRL downloads
 * are idempotent, and a kept-alive connection the server has just closed (its idle timeout
 * racing our reuse) fails exactly this way; an HTTP answer, even an error status, is never
 * retried. Redirects are refused: a responder URL from a certificate is used as written.
 */
export async function fetchOnceMore(url: string, init: RequestInit & { timeoutMs: number; method: 'GET' | 'POST' }): Promise<Response> {
  const { timeoutMs, ...rest } = init;
  try {
    return await fetch(url, { ...rest, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    return fetch(url, { ...rest, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
  }
}
