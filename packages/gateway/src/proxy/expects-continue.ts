import type { IncomingMessage } from 'node:http';

/**
 * The client waits for `100 Continue` before sending its body (node emits such requests as
 * 'checkContinue', and the proxy sends the 100 itself when it starts reading the body).
 */
export function expectsContinue(req: IncomingMessage): boolean {
  const expect = req.headers.expect;
  return expect !== undefined && expect.trim().toLowerCase() === '100-continue';
}
