/**
 * POSTs with one immediate second try when the connection failed before any answer (a reset
 * or refused socket: fetch's TypeError). Timestamp and OCSP requests are idempotent, and a
 * kept-alive connection the server has just closed (its idle timeout racing our reuse) fails
 * exactly this way; an HTTP answer, even an error status, is never retried.
 */
export async function postOnceMore(url: string, init: RequestInit & { timeoutMs: number }): Promise<Response> {
  const { timeoutMs, ...rest } = init;
  try {
    return await fetch(url, { ...rest, method: 'POST', redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    return fetch(url, { ...rest, method: 'POST', redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
  }
}
