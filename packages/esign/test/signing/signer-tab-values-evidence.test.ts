import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { pollUntil } from '@signet/kit';
import { buildConverter, type Converter } from '@signet/pdf';
import { startConnectEsign, startListener, type Received } from '../connect/connect-harness.ts';
import { FormClient, formFields } from '../support/form-client.ts';
import { pdfText } from '../support/pdf-text.ts';
import { b64, samplePdf, type SigningHarness } from './signing-harness.ts';

// Where the values two signers typed end up, read from outside: the Connect messages that ask
// for tabs, listRecipients?include_tabs=true, and the certificate of completion, which lists
// each value under the signer who gave it (never under the other one).

let converter: Converter;
before(async () => {
  converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
});
after(() => converter.close());

type WireTabs = { textTabs?: { tabId: string; tabLabel: string; value: string }[]; checkboxTabs?: { tabId: string; tabLabel: string; selected: string }[]; signHereTabs?: { tabId: string }[] };
type Message = { event: string; data: { recipientId?: string; envelopeSummary?: { recipients?: { signers: { recipientId: string; status: string; tabs?: WireTabs }[] } } } };

const SIGNERS = [
  { recipientId: '1', name: 'Bea Buyer', email: 'bea@example.com', clientUserId: 'bea-1', role: 'Purchasing lead', agree: 'true' },
  { recipientId: '2', name: 'Sol Seller', email: 'sol@example.com', clientUserId: 'sol-2', role: 'Account manager', agree: 'false' },
] as const;

const at = (x: number, y: number) => ({ documentId: '1', pageNumber: '1', xPosition: String(x), yPosition: String(y) });

/** The signer's own ceremony, as the page posts it: a typed signature and their tab values by tabId. */
async function finishAs(h: SigningHarness, envelopeId: string, signer: (typeof SIGNERS)[number], values: (tabs: WireTabs) => Record<string, string>): Promise<void> {
  const listed = (await (await h.api('GET', `/envelopes/${envelopeId}/recipients?include_tabs=true`)).json()) as { signers: { recipientId: string; tabs: WireTabs }[] };
  const tabs = listed.signers.find((s) => s.recipientId === signer.recipientId)?.tabs ?? assert.fail(`the tabs of ${signer.name}`);
  const view = await h.api('POST', `/envelopes/${envelopeId}/views/recipient`, { returnUrl: 'https://app.example/done', authenticationMethod: 'none', email: signer.email, userName: signer.name, clientUserId: signer.clientUserId });
  assert.equal(view.status, 201, await view.clone().text());
  const browser = new FormClient(h.origin);
  const redeemed = await browser.get(new URL(((await view.json()) as { url: string }).url).pathname);
  assert.equal(redeemed.status, 303, redeemed.text);
  const path = String(redeemed.headers.location);
  const page = await browser.get(path);
  assert.equal(page.status, 200, page.text);
  const finished = await browser.post(`${path}/finish`, {
    ...formFields(page.text, `${path}/finish`), signatureKind: 'typed', signatureText: signer.name,
    signedTabs: (tabs.signHereTabs ?? []).map((t) => t.tabId).join(','), tabValues: JSON.stringify(values(tabs)),
  });
  assert.equal(finished.status, 303, finished.text);
}

test('two signers\' tab values: in the Connect messages that ask for tabs, in listRecipients?include_tabs=true, and on the certificate under each signer', async (t) => {
  const listener = await startListener(t, () => 200);
  const h = await startConnectEsign(t, { converter, settings: { CONNECT_ALLOW_HTTP: '1', CONNECT_ALLOW_PRIVATE: '1' }, connect: { worker: { pollIntervalMs: 20 } } });
  const created = await h.api('POST', '/envelopes', {
    emailSubject: 'Supply agreement',
    documents: [{ documentBase64: b64(await samplePdf(1, 'Supply agreement')), documentId: '1', fileExtension: 'pdf', name: 'Supply agreement' }],
    recipients: { signers: SIGNERS.map((s, i) => ({
      email: s.email, name: s.name, recipientId: s.recipientId, routingOrder: String(i + 1), clientUserId: s.clientUserId,
      tabs: { signHereTabs: [at(72 + i * 250, 560)], textTabs: [{ ...at(72 + i * 250, 120), tabLabel: 'Role' }], checkboxTabs: [{ ...at(72 + i * 250, 160), tabLabel: 'Agree' }] },
    })) },
    eventNotification: {
      url: `${listener.url}/hook`, requireAcknowledgment: 'true', events: ['envelope-completed'], recipientEvents: [{ recipientEventStatusCode: 'Completed' }],
      eventData: { version: 'restv2.1', format: 'json', includeData: ['recipients', 'tabs'] },
    },
    status: 'sent',
  });
  assert.equal(created.status, 201, await created.clone().text());
  const { envelopeId } = (await created.json()) as { envelopeId: string };

  for (const signer of SIGNERS) {
    await finishAs(h, envelopeId, signer, (tabs) => ({ [tabs.textTabs?.[0]?.tabId ?? '']: signer.role, [tabs.checkboxTabs?.[0]?.tabId ?? '']: signer.agree }));
  }

  // Connect: each recipient-completed message already carries what that signer typed; the
  // envelope-completed one carries both, each under its own signer.
  const messages = await pollUntil(() => {
    const got = listener.received.filter((r) => r.status === 200).map((r: Received) => JSON.parse(r.raw) as Message);
    return got.some((m) => m.event === 'envelope-completed') ? got : undefined;
  }, { timeoutMs: 60_000, intervalMs: 50, what: 'the envelope-completed message' });
  const valuesIn = (m: Message | undefined) => m?.data.envelopeSummary?.recipients?.signers.map((s) => [s.recipientId, s.tabs?.textTabs?.[0]?.value, s.tabs?.checkboxTabs?.[0]?.selected]);
  const first = messages.find((m) => m.event === 'recipient-completed' && m.data.recipientId === '1');
  assert.deepEqual(valuesIn(first), [['1', 'Purchasing lead', 'true'], ['2', '', 'false']]);
  assert.deepEqual(valuesIn(messages.find((m) => m.event === 'envelope-completed')), [['1', 'Purchasing lead', 'true'], ['2', 'Account manager', 'false']]);

  // The REST view of the same values.
  const listed = (await (await h.api('GET', `/envelopes/${envelopeId}/recipients?include_tabs=true`)).json()) as { signers: { recipientId: string; tabs: WireTabs }[] };
  assert.deepEqual(listed.signers.map((s) => [s.recipientId, s.tabs.textTabs?.[0]?.value, s.tabs.checkboxTabs?.[0]?.selected]), [['1', 'Purchasing lead', 'true'], ['2', 'Account manager', 'false']]);

  // The certificate: each signer's block (from their name to the next signer's) lists their values only.
  const certificate = await h.api('GET', `/envelopes/${envelopeId}/documents/certificate`);
  assert.equal(certificate.status, 200);
  const text = (await pdfText(new Uint8Array(await certificate.arrayBuffer()))).replace(/[ \t]+/g, ' ');
  const [bea, sol] = [text.indexOf('Bea Buyer'), text.indexOf('Sol Seller')];
  assert.ok(bea >= 0 && sol > bea, 'both signers, in routing order');
  const [beaBlock, solBlock] = [text.slice(bea, sol), text.slice(sol)];
  assert.match(beaBlock, /Role: Purchasing lead/);
  assert.match(beaBlock, /Agree: checked/);
  assert.doesNotMatch(beaBlock, /Account manager|not checked/);
  assert.match(solBlock, /Role: Account manager/);
  assert.match(solBlock, /Agree: not checked/);
  assert.doesNotMatch(solBlock, /Purchasing lead/);
});
