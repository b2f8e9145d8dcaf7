// An in-process gateway with one HTTP/2 (TLS, ALPN h2) proxy listener serving a kong.yml, and
// node:http2 clients for it. Everything is closed in t.after.
import type { TestContext } from 'node:test';
import { connect, type ClientHttp2Session, type ClientHttp2Stream, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http2';
import { createCertificateAuthority, issueCertificate } from '@signet/kit';
import { buildGateway, type Gateway, type GatewayDeps } from '../../src/build-gateway.ts';
import { parseDeclarativeConfig } from '../../src/declarative/parse-declarative-config.ts';
import { TEST_CONFIG } from '../proxy/proxy.fixture.ts';

const ca = createCertificateAuthority({ commonName: 'h2 fixture CA' });
const cert = issueCertificate({ commonName: 'localhost', dnsNames: ['localhost'] }, ca);

export type Http2Gateway = {
  readonly gateway: Gateway;
  readonly port: number;
  /** A new client session, closed in t.after. */
  session(settings?: { initialWindowSize?: number }): ClientHttp2Session;
};

export async function startHttp2Gateway(t: TestContext, yml: string, deps: GatewayDeps = {}): Promise<Http2Gateway> {
  const snapshot = parseDeclarativeConfig(yml, { fileName: 'kong.yml' });
  const gateway = await buildGateway({ ...TEST_CONFIG, sslCert: cert, proxyListen: [{ host: '127.0.0.1', port: 0, ssl: true, http2: true }] }, { ...deps, snapshot });
  const [bound] = await gateway.listen();
  const sessions: ClientHttp2Session[] = [];
  t.after(async () => {
    for (const s of sessions) s.destroy();
    await gateway.close();
  });
  return {
    gateway,
    port: bound!.port,
    session(settings) {
      const s = connect(`https://127.0.0.1:${bound!.port}`, { ca: ca.certPem, servername: 'localhost', ...(settings === undefined ? {} : { settings }) });
      s.on('error', () => undefined);
      sessions.push(s);
      return s;
    },
  };
}

export type H2Response = { readonly headers: IncomingHttpHeaders; readonly body: Buffer };

/** One request on `s`: its response head and whole body; rejects on a reset. */
export function h2request(s: ClientHttp2Session, headers: OutgoingHttpHeaders, body?: Buffer | string): Promise<H2Response> {
  return new Promise((resolve, reject) => {
    const req: ClientHttp2Stream = s.request(headers, { endStream: body === undefined });
    const parts: Buffer[] = [];
    let head: IncomingHttpHeaders = {};
    req.on('response', (h) => (head = h));
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve({ headers: head, body: Buffer.concat(parts) }));
    req.on('error', reject);
    if (body !== undefined) req.end(body);
  });
}
