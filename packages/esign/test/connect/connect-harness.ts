import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import type { TestContext } from 'node:test';
import type { Converter } from '@signet/pdf';
import { listenOnLoopback } from '@signet/kit/testing';
import type { ConnectModuleOptions } from '../../src/connect/build-connect.ts';
import type { RawEsignSettings } from '../../src/config.ts';
import { startSigningEsign, type SigningHarness } from '../signing/signing-harness.ts';

export type ConnectHarness = SigningHarness;

/**
 * The signing harness (server.ts wiring, fresh SQLite, a user with a bearer token) with mail to
 * the dev mailbox, `settings` added to the environment (the Connect allowances), the Connect
 * worker tuned by `connect`, and a fast completion poll.
 */
export function startConnectEsign(t: TestContext, options: { converter: Converter; settings?: RawEsignSettings; connect?: ConnectModuleOptions }): Promise<ConnectHarness> {
  return startSigningEsign(t, { ...options, completionPollMs: 50 });
}

/** One POST a listener received: the raw body exactly as sent, and the headers. */
export type Received = { path: string; headers: IncomingHttpHeaders; raw: string; status: number };

/** A Connect listener on 127.0.0.1:0 that records every POST and answers what `answer` says. */
export async function startListener(t: TestContext, answer: (path: string, index: number) => number): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      const status = answer(path, received.filter((r) => r.path === path).length);
      received.push({ path, headers: req.headers, raw: Buffer.concat(chunks).toString('utf8'), status });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'not now');
    });
  });
  const port = await listenOnLoopback(server);
  t.after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${port}`, received };
}
