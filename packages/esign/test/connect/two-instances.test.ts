import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { pollUntil } from '@signet/kit';
import { listenOnLoopback } from '@signet/kit/testing';
import { buildConverter, type Converter } from '@signet/pdf';
import { loadEsignConfig } from '../../src/config.ts';
import { buildEsignServer } from '../../src/server.ts';
import { ConnectRepository } from '../../src/store/connect-repository.ts';
import { openStore, storeLocation } from '../../src/store/index.ts';
import { b64, samplePdf } from '../support/sample-pdf.ts';
import { startConnectEsign, startListener } from './connect-harness.ts';

let converter: Converter;
before(async () => {
  converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
});
after(() => converter.close());

const ALLOW = { CONNECT_ALLOW_HTTP: '1', CONNECT_ALLOW_PRIVATE: '1' };

test('two esign instances on one database, both workers polling: every delivery is claimed and sent exactly once', async (t) => {
  const listener = await startListener(t, () => 200);
  const a = await startConnectEsign(t, { converter, settings: ALLOW, connect: { worker: { pollIntervalMs: 5, batchSize: 3 } } });
  // Instance B: the same DATA_DIR (SQLite file, HMAC key file), its own listener and worker.
  const serverB = createServer();
  const portB = await listenOnLoopback(serverB);
  const configB = loadEsignConfig({ DATA_DIR: a.dataDir, PUBLIC_URL: a.origin, PORT: String(portB), ...ALLOW }, a.dataDir);
  const storeB = await openStore(storeLocation(configB));
  const b = await buildEsignServer(configB, { store: storeB, converter, serverFactory: (handler) => serverB.on('request', handler), connect: { worker: { pollIntervalMs: 5, batchSize: 3 } } });
  await b.ready();
  t.after(async () => {
    await b.close();
    serverB.closeAllConnections();
    await new Promise<void>((resolve) => serverB.close(() => resolve()));
    await storeB.close();
  });

  const pdf = b64(await samplePdf(1));
  const create = (origin: string, i: number) => fetch(`${origin}/restapi/v2.1/accounts/${a.accountId}/envelopes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      emailSubject: `Order ${i}`, status: 'sent',
      documents: [{ documentBase64: pdf, documentId: '1', fileExtension: 'pdf', name: 'Order' }],
      recipients: { signers: [{ email: `s${i}@example.com`, name: 'Sam', recipientId: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '500' }] } }] },
      eventNotification: { url: `${listener.url}/hook`, events: ['envelope-sent', 'recipient-sent'] },
    }),
  }).then(async (res) => {
    assert.equal(res.status, 201, await res.clone().text());
    return ((await res.json()) as { envelopeId: string }).envelopeId;
  });
  // Envelopes created on both instances at once: each instance's change wakes its own worker.
  const ids = await Promise.all(Array.from({ length: 12 }, (_, i) => create(i % 2 === 0 ? a.origin : `http://127.0.0.1:${portB}`, i)));

  const repository = new ConnectRepository(a.store.db);
  const rows = await pollUntil(async () => {
    const all = await repository.listDeliveries(a.accountId);
    return all.length === 24 && all.every((r) => r.status === 'delivered') ? all : undefined;
  }, { timeoutMs: 20_000, intervalMs: 20, what: '24 deliveries delivered' });
  assert.deepEqual(rows.filter((r) => Number(r.attempts) !== 1).map((r) => r.id), [], 'no delivery was claimed twice');
  const seen = listener.received.map((r) => JSON.parse(r.raw) as { event: string; data: { envelopeId: string } }).map((m) => `${m.data.envelopeId} ${m.event}`);
  assert.equal(seen.length, 24);
  assert.deepEqual([...seen].sort(), ids.flatMap((id) => [`${id} envelope-sent`, `${id} recipient-sent`]).sort());
});
