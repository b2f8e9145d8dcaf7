import { execFile } from 'node:child_process';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { rm, writeFile, readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { listenOnLoopback } from './listen-on-loopback.ts';
import type { TestPki } from './test-pki.ts';

const run = promisify(execFile);

/** An RFC 3161 timestamp authority for tests: Debian's `openssl ts -reply` behind HTTP on 127.0.0.1. */
export type TestTsa = {
  readonly url: string;
  /** Requests answered with a token so far. */
  readonly issued: () => number;
  /** While true, every request gets a 503 (a TSA that is down). */
  failing: boolean;
  stop(): Promise<void>;
};

export type TestTsaOptions = { username?: string; password?: string };

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 64 * 1024) throw new Error('timestamp query too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Starts the TSA; it signs with the PKI's TSA certificate and includes the root in its tokens. */
export async function startTestTsa(pki: TestPki, options: TestTsaOptions = {}): Promise<TestTsa> {
  const config = join(pki.dir, 'tsa.cnf');
  await writeFile(join(pki.dir, 'tsaserial'), '01\n');
  await writeFile(config, `
[ tsa ]
default_tsa = tsa_config
[ tsa_config ]
dir = ${pki.dir}
serial = ${pki.dir}/tsaserial
crypto_device = builtin
signer_cert = ${pki.tsa.certFile}
certs = ${pki.root.certFile}
signer_key = ${pki.tsa.keyFile}
signer_digest = sha256
default_policy = 1.3.6.1.4.1.57264.99.1
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = yes
tsa_name = yes
ess_cert_id_chain = yes
ess_cert_id_alg = sha256
`);
  let issued = 0;
  let queue: Promise<unknown> = Promise.resolve();
  const state = { failing: false };
  const expectedAuth = options.username !== undefined ? `Basic ${Buffer.from(`${options.username}:${options.password ?? ''}`).toString('base64')}` : undefined;
  const server = createServer((req, res) => {
    void (async () => {
      if (state.failing) return res.writeHead(503).end('down for the test');
      if (expectedAuth && !sameSecret(req.headers.authorization ?? '', expectedAuth)) return res.writeHead(401, { 'www-authenticate': 'Basic realm="tsa"' }).end();
      if (req.method !== 'POST' || req.headers['content-type'] !== 'application/timestamp-query') return res.writeHead(400).end('expected a timestamp query');
      const query = await body(req);
      const stem = join(pki.dir, `tsq-${randomBytes(6).toString('hex')}`);
      try {
        await writeFile(`${stem}.tsq`, query);
        // One openssl at a time: each reads and rewrites the serial file, and two at once can both fail.
        const turn = queue.then(() => run('openssl', ['ts', '-reply', '-config', config, '-queryfile', `${stem}.tsq`, '-out', `${stem}.tsr`]));
        queue = turn.catch(() => undefined);
        await turn;
        const reply = await readFile(`${stem}.tsr`);
        issued += 1;
        res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(reply);
      } finally {
        await rm(`${stem}.tsq`, { force: true });
        await rm(`${stem}.tsr`, { force: true });
      }
    })().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    });
  });
  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}/tsa`,
    issued: () => issued,
    get failing() {
      return state.failing;
    },
    set failing(value: boolean) {
      state.failing = value;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
