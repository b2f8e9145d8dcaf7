import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { createServer } from 'node:https';
import { request } from 'node:https';
import { createCertificateAuthority, issueCertificate } from './dev-pki.ts';
import { listenOnLoopback } from './testing/listen-on-loopback.ts';

test('a CA issues a localhost certificate that a client trusting only that CA accepts', async () => {
  const ca = createCertificateAuthority({ commonName: 'Signet test CA', days: 1 });
  const leaf = issueCertificate({ commonName: 'localhost', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] }, ca);

  const caX509 = new X509Certificate(ca.certPem);
  const leafX509 = new X509Certificate(leaf.certPem);
  assert.equal(caX509.ca, true);
  assert.equal(leafX509.ca, false);
  assert.equal(leafX509.checkIssued(caX509), true);
  assert.equal(leafX509.verify(caX509.publicKey), true);
  assert.equal(leafX509.checkPrivateKey(createPrivateKey(leaf.keyPem)), true);
  assert.equal(leafX509.checkHost('localhost'), 'localhost');
  assert.equal(leafX509.checkIP('127.0.0.1'), '127.0.0.1');
  assert.ok(!leaf.certPem.includes('\r') && !ca.certPem.includes('\r') && !leaf.keyPem.includes('\r'), 'PEMs use LF line ends');

  const server = createServer({ cert: leaf.certPem, key: leaf.keyPem }, (_req, res) => res.end('tls ok'));
  const port = await listenOnLoopback(server);
  try {
    const body = await new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', servername: 'localhost', port, ca: ca.certPem, path: '/' }, (res) => {
        let b = '';
        res.on('data', (d: Buffer) => (b += d.toString()));
        res.on('end', () => resolve(b));
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(body, 'tls ok');
  } finally {
    server.close();
  }
});

test('a self-signed certificate verifies against itself', () => {
  const self = issueCertificate({ commonName: 'default.signet.invalid', days: 1 });
  const x = new X509Certificate(self.certPem);
  assert.equal(x.verify(x.publicKey), true);
  assert.match(x.subjectAltName ?? '', /DNS:default\.signet\.invalid/);
});

/** Connects to a TLS server presenting `leaf` for `servername`, trusting only `caPem`: 'ok' or the error. */
async function handshake(leaf: { certPem: string; keyPem: string }, caPem: string, servername: string): Promise<string> {
  const server = createServer({ cert: leaf.certPem, key: leaf.keyPem }, (_req, res) => res.end('ok'));
  const port = await listenOnLoopback(server);
  try {
    return await new Promise<string>((resolve) => {
      const req = request({ host: '127.0.0.1', servername, port, ca: caPem, path: '/', checkServerIdentity: () => undefined }, (res) => {
        res.resume();
        res.on('end', () => resolve('ok'));
      });
      req.on('error', (err: NodeJS.ErrnoException) => resolve(`${err.code ?? ''} ${err.message}`));
      req.end();
    });
  } finally {
    server.close();
  }
}

test('a name-constrained CA vouches for localhost and loopback only: a certificate it issues for another site is refused by TLS clients', async () => {
  const permitted = { dnsNames: ['localhost'], ipRanges: ['127.0.0.0/8', '::1/128'] };
  const ca = createCertificateAuthority({ commonName: 'Constrained CA', days: 1, permitted });
  // Whoever holds the key (it sits in a data directory) can issue anything; clients must refuse it.
  const forged = issueCertificate({ commonName: 'bank.example', dnsNames: ['bank.example'] }, ca);
  assert.match(await handshake(forged, ca.certPem, 'bank.example'), /permitted subtree violation/);
  const forgedIp = issueCertificate({ commonName: 'inside', dnsNames: ['localhost'], ipAddresses: ['10.0.0.7'] }, ca);
  assert.match(await handshake(forgedIp, ca.certPem, 'localhost'), /permitted subtree violation/);
  // What the gateway really uses still works, by name and by address.
  const good = issueCertificate({ commonName: 'localhost', dnsNames: ['localhost', 'esign.localhost'], ipAddresses: ['127.0.0.1', '::1'] }, ca);
  assert.equal(await handshake(good, ca.certPem, 'localhost'), 'ok');
  // The same forgery from an unconstrained CA goes through: the constraint is what stops it.
  const open = createCertificateAuthority({ commonName: 'Open CA', days: 1 });
  assert.equal(await handshake(issueCertificate({ commonName: 'bank.example', dnsNames: ['bank.example'] }, open), open.certPem, 'bank.example'), 'ok');
  assert.throws(() => createCertificateAuthority({ commonName: 'x', permitted: { dnsNames: [], ipRanges: ['127.0.0.1/33'] } }), /bad IP range/);
});
