import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { listenOnLoopback } from './listen-on-loopback.ts';
import type { TestPki } from './test-pki.ts';

const run = promisify(execFile);

/**
 * An OCSP responder for tests: Debian's `openssl ocsp` in responder mode (-index, the test
 * CA's database, so a revoked certificate answers "revoked") behind HTTP POST on 127.0.0.1.
 * It listens before the PKI exists, since the certificates carry its URL: `attach` the PKI.
 * GET /crl.der serves the CA's CRL from the same database (the PKI's `crlUrl`).
 */
export type TestOcsp = {
  readonly url: string;
  readonly answered: () => number;
  /** How many CRLs were served. */
  readonly crlsServed: () => number;
  /** While true, every request gets a 503 (a responder that is down). */
  failing: boolean;
  attach(pki: TestPki): void;
  stop(): Promise<void>;
};

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

export async function startTestOcsp(): Promise<TestOcsp> {
  let pki: TestPki | undefined;
  let answered = 0;
  let crlsServed = 0;
  const state = { failing: false };
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (state.failing) return res.writeHead(503).end('down for the test');
      if (pki && req.method === 'GET' && req.url === '/crl.der') {
        const crl = await pki.crl();
        crlsServed += 1;
        return res.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(crl);
      }
      if (!pki || req.method !== 'POST' || req.headers['content-type'] !== 'application/ocsp-request') return res.writeHead(400).end();
      const stem = join(pki.dir, `ocsp-${randomBytes(6).toString('hex')}`);
      try {
        await writeFile(`${stem}.req`, await body(req));
        await run('openssl', ['ocsp', '-index', pki.indexFile, '-CA', pki.root.certFile, '-rsigner', pki.ocsp.certFile, '-rkey', pki.ocsp.keyFile,
          '-reqin', `${stem}.req`, '-respout', `${stem}.resp`, '-ndays', '7']);
        const response = await readFile(`${stem}.resp`);
        answered += 1;
        res.writeHead(200, { 'content-type': 'application/ocsp-response' }).end(response);
      } finally {
        await rm(`${stem}.req`, { force: true });
        await rm(`${stem}.resp`, { force: true });
      }
    })().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    });
  });
  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}/ocsp`,
    answered: () => answered,
    crlsServed: () => crlsServed,
    get failing() {
      return state.failing;
    },
    set failing(value: boolean) {
      state.failing = value;
    },
    attach(p) {
      pki = p;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
