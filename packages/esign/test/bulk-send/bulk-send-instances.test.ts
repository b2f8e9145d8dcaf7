import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test, type TestContext } from 'node:test';
import { pollUntil } from '@signet/kit';
import { listenOnLoopback } from '@signet/kit/testing';
import { extractText, validatePdf } from '@signet/pdf';
import { loadEsignConfig } from '../../src/config.ts';
import { buildEsignServer } from '../../src/server.ts';
import { openStore, storeLocation } from '../../src/store/index.ts';
import { OutboxRepository } from '../../src/store/outbox-repository.ts';
import { b64, samplePdf, startSigningEsign, type SigningHarness } from '../signing/signing-harness.ts';

const PASSTHROUGH = { convert: async ({ bytes }: { bytes: Uint8Array }) => { await validatePdf(bytes); return bytes; }, extractText, close: () => Promise.resolve() } as never;
const WORKER = { pollIntervalMs: 5, batchSize: 3 };
const ROWS = 60;

/** Another esign on the same DATA_DIR (the SQLite file): a second instance, or the first one restarted. */
async function instanceOn(t: TestContext, a: SigningHarness) {
  const server = createServer();
  const port = await listenOnLoopback(server);
  const config = loadEsignConfig({ DATA_DIR: a.dataDir, PUBLIC_URL: a.origin, PORT: String(port) }, a.dataDir);
  const store = await openStore(storeLocation(config));
  const app = await buildEsignServer(config, { store, converter: PASSTHROUGH, serverFactory: (handler) => server.on('request', handler), bulkSend: WORKER, mailWorker: { pollIntervalMs: 50 } });
  await app.ready();
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await app.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await store.close();
  };
  t.after(close);
  return { origin: `http://127.0.0.1:${port}`, close };
}

test('two esign instances on one SQLite file, one of them restarted mid-batch: every row is made exactly once', async (t) => {
  const a = await startSigningEsign(t, { converter: PASSTHROUGH, bulkSend: WORKER });
  const b = await instanceOn(t, a);
  const call = async (origin: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${origin}/restapi/v2.1/accounts/${a.accountId}${path}`, { method, headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    assert.ok(res.ok, text);
    return JSON.parse(text) as Record<string, string>;
  };
  const { envelopeId } = await call(a.origin, 'POST', '/envelopes', {
    emailSubject: 'Bulk', status: 'created',
    documents: [{ documentBase64: b64(await samplePdf(1)), documentId: '1', fileExtension: 'pdf', name: 'Terms' }],
    recipients: { signers: [{ email: 'placeholder@example.com', name: 'Placeholder', roleName: 'signer', recipientId: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '500' }] } }] },
  });
  const { listId } = await call(a.origin, 'POST', '/bulk_send_lists', { name: 'all', bulkCopies: Array.from({ length: ROWS }, (_, i) => ({ recipients: [{ roleName: 'signer', name: `Row ${i + 1}`, email: `row${i + 1}@example.com` }] })) });
  // Sent through B: B's worker is woken, A's polls; both take rows.
  const { batchId } = await call(b.origin, 'POST', `/bulk_send_lists/${listId}/send`, { envelopeOrTemplateId: envelopeId });
  const progress = async () => call(a.origin, 'GET', `/bulk_send_batch/${batchId}`);
  // B stops part way (its pass in progress finishes; what it had not claimed stays queued) and
  // comes back as a new instance on the same file.
  await pollUntil(async () => Number((await progress()).sent) >= 5, { timeoutMs: 20_000, intervalMs: 5, what: 'a few rows sent' });
  await b.close();
  await instanceOn(t, a);
  const done = await pollUntil(async () => {
    const p = await progress();
    return p.queued === '0' ? p : undefined;
  }, { timeoutMs: 30_000, intervalMs: 20, what: 'the batch sent' });
  assert.deepEqual([done.sent, done.failed], [String(ROWS), '0']);
  const envelopes = await a.store.db.kysely.selectFrom('envelopes').select('id').where('account_id', '=', a.accountId).where('status', '=', 'sent').execute();
  assert.equal(envelopes.length, ROWS, 'one envelope per row');
  const mails = (await new OutboxRepository(a.store.db).list()).filter((m) => m.kind === 'envelope-sent').map((m) => m.recipient_email).sort();
  assert.deepEqual(mails, Array.from({ length: ROWS }, (_, i) => `row${i + 1}@example.com`).sort(), 'each row\'s signer mailed once');
});
