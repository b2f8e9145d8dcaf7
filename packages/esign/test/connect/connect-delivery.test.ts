import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { after, before, test } from 'node:test';
import { pollUntil } from '@signet/kit';
import { buildConverter, type Converter } from '@signet/pdf';
import { SecretBox } from '../../src/connect/secret-box.ts';
import { ConnectRepository } from '../../src/store/connect-repository.ts';
import { b64, samplePdf } from '../support/sample-pdf.ts';
import { FormClient, hiddenField } from '../support/form-client.ts';
import { startConnectEsign, startListener, type Received } from './connect-harness.ts';

// The key the operator configured (CONNECT_SECRET_KEY): HMAC secrets are sealed under it.
const SECRET_KEY = Buffer.alloc(32, 42);
// Fast, deterministic-enough retries: 10-20 ms, then doubling; 4 attempts in all.
const FAST_RETRY = { baseMs: 20, maxMs: 80, maxAttempts: 4 };

let converter: Converter;
before(async () => {
  converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
});
after(() => converter.close());

type Message = { event: string; apiVersion: string; uri: string; retryCount: number; configurationId: number; generatedDateTime: string; data: { accountId: string; userId: string; envelopeId: string; recipientId?: string; envelopeSummary?: { status: string; recipients?: { signers: { status: string }[] }; envelopeDocuments?: { documentId: string; PDFBytes?: string }[] } } };
const parse = (r: Received) => JSON.parse(r.raw) as Message;
const label = (m: Message) => (m.data.recipientId ? `${m.event}:${m.data.recipientId}` : m.event);

/** Does any X-DocuSign-Signature-N header carry base64(HMAC-SHA256(secret, raw body))? (How a listener verifies.) */
function verifiedBy(r: Received, secret: string): boolean {
  const expected = createHmac('sha256', secret).update(Buffer.from(r.raw, 'utf8')).digest();
  return Object.entries(r.headers).some(([name, value]) => /^x-docusign-signature-\d+$/.test(name) && typeof value === 'string' && Buffer.from(value, 'base64').length === expected.length && timingSafeEqual(Buffer.from(value, 'base64'), expected));
}

test('a full envelope life reaches a real listener: every event once, HMAC-signed, the refused first delivery retried; failures logged and republished', async (t) => {
  // /envelope refuses its very first POST (500), /down is out of order until told otherwise.
  let downIsUp = false;
  const listener = await startListener(t, (path, index) => (path === '/envelope' && index === 0 ? 500 : path === '/down' && !downIsUp ? 503 : 200));
  const h = await startConnectEsign(t, {
    converter,
    settings: { CONNECT_ALLOW_HTTP: '1', CONNECT_ALLOW_PRIVATE: '1', CONNECT_SECRET_KEY: SECRET_KEY.toString('base64') },
    connect: { worker: { pollIntervalMs: 20, retry: FAST_RETRY } },
  });

  // Two active HMAC keys and a revoked one, stored sealed as the console stores them.
  const repository = new ConnectRepository(h.store.db);
  const box = new SecretBox(SECRET_KEY);
  const [oldKey, newKey, revokedKey] = ['old-key-0123456789abcdef', 'new-key-0123456789abcdef', 'revoked-key-0123456789ab'];
  await repository.addHmacKey(h.accountId, box.seal(oldKey), oldKey.slice(-4), new Date(Date.now() - 2000));
  await repository.addHmacKey(h.accountId, box.seal(newKey), newKey.slice(-4), new Date(Date.now() - 1000));
  const revokedId = await repository.addHmacKey(h.accountId, box.seal(revokedKey), revokedKey.slice(-4), new Date());
  await repository.revokeHmacKey(h.accountId, revokedId, new Date());

  // Account-level configurations through the REST API: completions without HMAC, and one whose listener is down.
  const completions = await h.api('POST', '/connect', { name: 'Completions', urlToPublishTo: `${listener.url}/account`, events: ['envelope-completed'], allUsers: 'true', allowEnvelopePublish: 'true', includeDocuments: 'true' });
  assert.equal(completions.status, 201, await completions.clone().text());
  const down = await h.api('POST', '/connect', { name: 'Down', urlToPublishTo: `${listener.url}/down`, envelopeEvents: ['Sent'], allUsers: 'true' });
  assert.equal(down.status, 201);
  const downId = ((await down.json()) as { connectId: string }).connectId;

  // The envelope with its own eventNotification: every event, HMAC, recipients in the summary.
  const created = await h.api('POST', '/envelopes', {
    emailSubject: 'Please sign the lease',
    documents: [{ documentBase64: b64(await samplePdf(1)), documentId: '1', fileExtension: 'pdf', name: 'Lease' }],
    recipients: { signers: [{ email: 'tess@example.com', name: 'Tess Tenant', recipientId: '1', routingOrder: '1', clientUserId: 'tess-1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '500' }] } }] },
    eventNotification: {
      url: `${listener.url}/envelope`, includeHMAC: 'true', requireAcknowledgment: 'true',
      events: ['envelope-sent', 'envelope-delivered', 'envelope-completed', 'envelope-declined', 'envelope-voided'],
      recipientEvents: [{ recipientEventStatusCode: 'Sent' }, { recipientEventStatusCode: 'Delivered' }, { recipientEventStatusCode: 'Completed' }],
      eventData: { version: 'restv2.1', format: 'json', includeData: ['recipients'] },
    },
    status: 'sent',
  });
  assert.equal(created.status, 201, await created.clone().text());
  const envelopeId = ((await created.json()) as { envelopeId: string }).envelopeId;

  // The signer opens an embedded view, then signs and finishes (the ceremony's own forms).
  const view = await h.api('POST', `/envelopes/${envelopeId}/views/recipient`, { returnUrl: 'https://app.example/done', authenticationMethod: 'none', email: 'tess@example.com', userName: 'Tess Tenant', clientUserId: 'tess-1' });
  assert.equal(view.status, 201);
  const signer = new FormClient(h.origin);
  const redeemed = await signer.get(new URL(((await view.json()) as { url: string }).url).pathname);
  assert.equal(redeemed.status, 303);
  const ceremony = await signer.get(String(redeemed.headers.location));
  assert.equal(ceremony.status, 200);
  const tabs = ((await (await h.api('GET', `/envelopes/${envelopeId}/recipients?include_tabs=true`)).json()) as { signers: { tabs: { signHereTabs: { tabId: string }[] } }[] }).signers[0]?.tabs.signHereTabs ?? [];
  const finished = await signer.post(`${String(redeemed.headers.location)}/finish`, { _csrf: hiddenField(ceremony.text, '_csrf'), signatureKind: 'typed', signatureText: 'Tess Tenant', signedTabs: tabs.map((tab) => tab.tabId).join(',') });
  assert.equal(finished.status, 303, finished.text);

  const expected = ['envelope-sent', 'recipient-sent:1', 'recipient-delivered:1', 'envelope-delivered', 'recipient-completed:1', 'envelope-completed'];
  const delivered = () => listener.received.filter((r) => r.path === '/envelope' && r.status === 200);
  await pollUntil(() => delivered().length >= expected.length && listener.received.some((r) => r.path === '/account'), { timeoutMs: 20_000, intervalMs: 20, what: 'every event at the listener' });

  // Each event exactly once (2xx), in the order it happened once the refused one is set aside.
  const messages = delivered().map(parse);
  assert.deepEqual(messages.map(label).sort(), [...expected].sort());
  assert.deepEqual(messages.filter((m) => m.event !== 'envelope-sent').map(label), expected.filter((e) => e !== 'envelope-sent'));
  // The refused first delivery was envelope-sent; its retry is the same message with retryCount 1.
  const sentAttempts = listener.received.filter((r) => r.path === '/envelope' && parse(r).event === 'envelope-sent');
  assert.deepEqual(sentAttempts.map((r) => [r.status, parse(r).retryCount]), [[500, 0], [200, 1]]);
  assert.deepEqual({ ...parse(sentAttempts[0] as Received), retryCount: 1 }, parse(sentAttempts[1] as Received));

  for (const r of listener.received.filter((x) => x.path === '/envelope')) {
    const m = parse(r);
    assert.equal(r.headers['content-type'], 'application/json');
    assert.ok(verifiedBy(r, oldKey) && verifiedBy(r, newKey), `${label(m)}: HMAC of the raw body under both active keys`);
    assert.equal(verifiedBy(r, revokedKey), false, 'a revoked key signs nothing');
    assert.equal(r.headers['x-docusign-signature-3'], undefined);
    assert.deepEqual([r.headers['x-authorization-digest'], r.headers['x-docusign-accountid']], ['HMACSHA256', h.accountId]);
    assert.deepEqual([m.apiVersion, m.uri, m.configurationId, m.data.accountId, m.data.userId, m.data.envelopeId], ['v2.1', `/restapi/v2.1/accounts/${h.accountId}/envelopes/${envelopeId}`, 0, h.accountId, h.userId, envelopeId]);
    assert.match(m.generatedDateTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/);
  }
  const completed = messages.find((m) => m.event === 'envelope-completed');
  assert.equal(completed?.data.envelopeSummary?.status, 'completed');
  assert.equal(completed?.data.envelopeSummary?.recipients?.signers[0]?.status, 'completed');

  // The account configuration: envelope-completed only, no HMAC asked, its connectId.
  const account = listener.received.filter((r) => r.path === '/account');
  assert.deepEqual(account.map((r) => parse(r).event), ['envelope-completed']);
  assert.equal(parse(account[0] as Received).configurationId, Number(((await completions.json()) as { connectId: string }).connectId));
  assert.deepEqual([account[0]?.headers['x-docusign-signature-1'], account[0]?.headers['x-authorization-digest']], [undefined, undefined]);
  // includeDocuments: the summary's documents carry the sealed PDF, the bytes getDocument serves.
  const documents = parse(account[0] as Received).data.envelopeSummary?.envelopeDocuments ?? [];
  assert.deepEqual(documents.map((d) => d.documentId), ['1']);
  const sealed = Buffer.from(await (await h.api('GET', `/envelopes/${envelopeId}/documents/1`)).arrayBuffer());
  assert.equal(Buffer.from(documents[0]?.PDFBytes ?? '', 'base64').equals(sealed), true, 'PDFBytes is the sealed document');
  assert.notEqual(sealed.byteLength, (await samplePdf(1)).byteLength);

  // The down listener: envelope-sent was tried 4 times, then logged as a failure.
  const failures = await pollUntil(async () => {
    const body = (await (await h.api('GET', '/connect/failures')).json()) as { totalRecords: string; failures: Record<string, string>[] };
    return body.failures.some((f) => f.status === 'failed') ? body : undefined;
  }, { timeoutMs: 10_000, intervalMs: 20, what: 'the failure log entry' });
  assert.equal(failures.totalRecords, '1');
  assert.deepEqual(
    { ...failures.failures[0], failureId: undefined, created: undefined, lastTry: undefined },
    { failureId: undefined, created: undefined, lastTry: undefined, accountId: h.accountId, envelopeId, connectId: downId, configUrl: `${listener.url}/down`, retryCount: '4', status: 'failed', error: 'The listener answered HTTP 503.', subject: 'envelope-sent', failureUri: `/connect/failures/${failures.failures[0]?.failureId}`, retryUri: `/connect/envelopes/${envelopeId}/retry_queue` },
  );
  assert.equal(listener.received.filter((r) => r.path === '/down').length, 4);

  // The listener is back: republish the envelope's failures; the message goes out and the log empties.
  downIsUp = true;
  const retried = await h.api('PUT', `/connect/envelopes/${envelopeId}/retry_queue`);
  assert.equal(retried.status, 200);
  assert.deepEqual(await retried.json(), { retryQueue: [{ envelopeId, configId: downId, configUrl: `${listener.url}/down`, status: 'Queued', statusMessage: 'envelope-sent is queued for delivery.' }] });
  await pollUntil(() => listener.received.find((r) => r.path === '/down' && r.status === 200), { timeoutMs: 10_000, intervalMs: 20, what: 'the republished delivery' });
  assert.equal(parse(listener.received.find((r) => r.path === '/down' && r.status === 200) as Received).retryCount, 4);
  await pollUntil(async () => ((await (await h.api('GET', '/connect/failures')).json()) as { totalRecords: string }).totalRecords === '0' || undefined, { timeoutMs: 5_000, intervalMs: 20, what: 'an empty failure log' });
  // Nothing else failed or is waiting.
  assert.deepEqual((await repository.listDeliveries(h.accountId, envelopeId)).map((d) => d.status).filter((s) => s !== 'delivered'), []);
});
