import type { IncomingMessage } from 'node:http';

/** Whether an Expect header's value asks for `100 Continue` (case and spaces aside). */
export function asksContinue(expect: string | undefined): boolean {
  return expect !== undefined && expect.trim().toLowerCase() === '100-continue';
}

/**
 * The client waits for `100 Continue` before sending its body (node emits such requests as
 * 'checkContinue', and the proxy sends the 100 itself when it starts reading the body).
 */
export function expectsContinue(req: IncomingMessage): boolean {
  return asksContinue(req.headers.expect);
}
