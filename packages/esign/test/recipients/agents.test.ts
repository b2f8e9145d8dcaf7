import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test, type TestContext } from 'node:test';
import { request } from 'undici';
import { launchChromium, pollUntil } from '@signet/kit';
import { makeSignaturePng } from '../../../pdf/test/raster.fixture.ts';
import { drawnSignatureFinish } from '../support/drawn-signature.ts';
import { pdfText } from '../support/pdf-text.ts';
import { FormClient, formFields } from '../support/form-client.ts';
import { signingPathIn, toAddress } from '../support/mail-parts.ts';
import { startSmtpListener, type SmtpListener } from '../support/smtp-listener.ts';
import { startReminderEsign } from '../reminders/reminders-harness.ts';
import { secondAccount } from '../support/second-account.ts';
import { sdkFailure } from '../support/sdk-failure.ts';
import { b64, samplePdf } from '../support/sample-pdf.ts';

// Agents, editors and intermediaries (docusign-esign src/model/Agent.js, Editor.js,
// Intermediary.js; DocuSign EnvelopeRecipients: an agent "can add name and email information
// for recipients that appear after the agent in routing order"): through the official SDK,
// an agent names the blank signer after it on its page in Chromium, from the keyboard; the
// change is listed, audited and certified, and routing goes on. Then the attacks over HTTP.
type Recipients = Record<'signers' | 'carbonCopies' | 'agents' | 'editors' | 'intermediaries', Record<string, string>[]> & { currentRoutingOrder?: string };
type Sdk = {
  ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void };
  EnvelopesApi: new (client: unknown) => {
    createEnvelope(accountId: string, opts: unknown): Promise<{ envelopeId: string }>;
    listRecipients(accountId: string, envelopeId: string): Promise<Recipients>;
    getEnvelope(accountId: string, envelopeId: string): Promise<{ status: string }>;
    listAuditEvents(accountId: string, envelopeId: string): Promise<{ auditEvents: { eventFields: { name: string; value: string }[] }[] }>;
  };
} & Record<'EnvelopeDefinition' | 'Document' | 'Signer' | 'CarbonCopy' | 'Agent' | 'Editor' | 'Intermediary' | 'SignHere' | 'Tabs' | 'Recipients', { constructFromObject(o: unknown): Record<string, unknown> }>;
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;
const wait = { timeoutMs: 30_000, intervalMs: 25 };

let smtp: SmtpListener;
let env: Awaited<ReturnType<typeof startReminderEsign>>;
let pdf: string;

async function envelopesApi() {
  const client = new docusign.ApiClient();
  client.setBasePath(`${env.h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${(await env.token()).access_token}`);
  return new docusign.EnvelopesApi(client);
}

const signHere = () => docusign.Tabs.constructFromObject({ signHereTabs: [docusign.SignHere.constructFromObject({ anchorString: '/sn1/', anchorUnits: 'pixels', anchorXOffset: '20', anchorYOffset: '10' })] });

/** An agent first; a signer it must name; a carbon copy whose address it may change; a signer it may not change. */
function agentEnvelope(tag: string) {
  return docusign.EnvelopeDefinition.constructFromObject({
    emailSubject: `Agent ${tag}`,
    status: 'sent',
    documents: [docusign.Document.constructFromObject({ documentBase64: pdf, name: 'Contract', fileExtension: 'pdf', documentId: '1' })],
    recipients: docusign.Recipients.constructFromObject({
      agents: [docusign.Agent.constructFromObject({ email: `agent-${tag}@example.com`, name: 'Ada Agent', recipientId: '1', routingOrder: '1' })],
      signers: [
        docusign.Signer.constructFromObject({ recipientId: '2', routingOrder: '2', tabs: signHere() }),
        docusign.Signer.constructFromObject({ email: `fixed-${tag}@example.com`, name: 'Fay Fixed', recipientId: '4', routingOrder: '3', tabs: signHere() }),
      ],
      carbonCopies: [docusign.CarbonCopy.constructFromObject({ email: `cc-${tag}@example.com`, name: 'Cora Copy', recipientId: '3', routingOrder: '2', agentCanEditEmail: 'true' })],
    }),
  });
}

async function certificateText(envelopeId: string): Promise<string> {
  const res = await request(`${env.base}/${envelopeId}/documents/certificate`, { headers: { authorization: `Bearer ${(await env.token()).access_token}` } });
  assert.equal(res.statusCode, 200);
  return pdfText(new Uint8Array(await res.body.arrayBuffer()));
}

const mailTo = (address: string) => pollUntil(() => smtp.received.find((m) => toAddress(m) === address), { ...wait, what: `a mail to ${address}` });
const mailsTo = (address: string) => smtp.received.filter((m) => toAddress(m) === address).length;

const subtests: [string, () => Promise<void>][] = [];
const subtest = (name: string, body: () => Promise<void>) => subtests.push([name, body]);

subtest('an agent names the blank signer on its page in Chromium from the keyboard; the change is listed, audited and certified, and routing goes on', async () => {
  const api = await envelopesApi();
  const { envelopeId } = await api.createEnvelope(env.seed.accountId, { envelopeDefinition: agentEnvelope('a') });
  const agentMail = await mailTo('agent-a@example.com');
  assert.match(agentMail.text ?? '', /Ada Agent, please say who receives these documents/);
  let listed = await api.listRecipients(env.seed.accountId, envelopeId);
  assert.deepEqual([listed.currentRoutingOrder, listed.agents[0]?.recipientType, listed.agents[0]?.status, listed.signers[0]?.email ?? '', listed.carbonCopies[0]?.agentCanEditEmail], ['1', 'agent', 'sent', '', 'true']);

  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${env.h.origin}${signingPathIn(agentMail, env.h.origin)}`);
    await page.getByRole('note').filter({ hasText: 'You are the agent for these documents' }).waitFor();
    // The fixed signer is shown, not editable; the carbon copy's name is fixed, its address is not.
    assert.equal(await page.getByRole('group', { name: /Recipient 4/ }).getByRole('textbox').count(), 0);
    assert.equal(await page.getByRole('group', { name: /Recipient 3/ }).getByLabel('Name').count(), 0);
    // Keyboard only: focus the first input, type, Tab to the next, Enter submits.
    await page.getByRole('group', { name: /Recipient 2/ }).getByLabel('Name').focus();
    await page.keyboard.type('Sam Signer');
    await page.keyboard.press('Tab');
    await page.keyboard.type('sam-a@example.com');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate<string | null>('document.activeElement && document.activeElement.id'), 'r-3-email');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('cora-new-a@example.com');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Thank you' }).waitFor();
  } finally {
    await browser.close();
  }

  // Routing went on to order 2, at the addresses the agent gave.
  const signerMail = await mailTo('sam-a@example.com');
  await mailTo('cora-new-a@example.com');
  assert.equal(mailsTo('cc-a@example.com'), 0, 'the old address of the copy gets nothing');
  listed = await api.listRecipients(env.seed.accountId, envelopeId);
  assert.deepEqual([listed.agents[0]?.status, listed.agents[0]?.signedDateTime, listed.signers[0]?.name, listed.signers[0]?.email, listed.signers[0]?.status, listed.carbonCopies[0]?.email], ['completed', undefined, 'Sam Signer', 'sam-a@example.com', 'sent', 'cora-new-a@example.com']);
  const audit = (await api.listAuditEvents(env.seed.accountId, envelopeId)).auditEvents.map((e) => Object.fromEntries(e.eventFields.map((f) => [f.name, f.value])));
  assert.ok(audit.some((e) => e['Action'] === 'Recipient Changed' && /Ada Agent \(agent\) changed recipient 2: name set to "Sam Signer", e-mail set to sam-a@example\.com\./.test(e['Message'] ?? '')), JSON.stringify(audit));

  const sam = await drawnSignatureFinish(new FormClient(env.h.origin), signingPathIn(signerMail, env.h.origin));
  assert.equal((await sam(makeSignaturePng(600, 200))).status, 303);
  const fixed = await drawnSignatureFinish(new FormClient(env.h.origin), signingPathIn(await mailTo('fixed-a@example.com'), env.h.origin));
  assert.equal((await fixed(makeSignaturePng(600, 200))).status, 303);
  await pollUntil(async () => ((await api.getEnvelope(env.seed.accountId, envelopeId)).status === 'completed' ? true : undefined), { ...wait, what: 'completion' });
  const certificate = await certificateText(envelopeId);
  assert.match(certificate, /Recipient Changed: Ada Agent \(agent\) changed recipient 2: name set to "Sam\s+Signer"/);
  assert.match(certificate, /Recipients Specified: Ada Agent \(agent\) finished: 2 recipients changed\./);
});

/** A sent agent envelope, its agent's page opened: the client, the page path and its form. */
async function openAgentPage(tag: string) {
  const api = await envelopesApi();
  const { envelopeId } = await api.createEnvelope(env.seed.accountId, { envelopeDefinition: agentEnvelope(tag) });
  const path = signingPathIn(await mailTo(`agent-${tag}@example.com`), env.h.origin);
  const agent = new FormClient(env.h.origin);
  const page = await agent.get(path);
  assert.equal(page.status, 200, page.text);
  const post = (fields: Record<string, string>) => agent.post(`${path}/finish`, { ...formFields(page.text, `${path}/finish`), ...fields });
  const recipients = () => api.listRecipients(env.seed.accountId, envelopeId);
  return { api, envelopeId, path, agent, post, recipients };
}

const FILL = { 'recipient.2.name': 'Sam', 'recipient.2.email': 'sam@example.com' };

subtest('attacks: an agent cannot change itself, a recipient its flags forbid, a recipient of another envelope, leave a blank or send a bad address; each is a 400 on its page and nothing changes', async () => {
  const other = await openAgentPage('other');
  const { post, recipients } = await openAgentPage('b');
  const snapshot = async () => {
    const l = await recipients();
    return [...l.agents, ...l.signers, ...l.carbonCopies].map((r) => [r.recipientId, r.name ?? '', r.email ?? '', r.routingOrder, r.status]);
  };
  const before = await snapshot();
  const attempts: [Record<string, string>, RegExp][] = [
    [{ ...FILL, 'recipient.1.email': 'evil@example.com' }, /RECIPIENT_UPDATE_FAILED: .*recipientId &quot;1&quot;: not a recipient this agent may change/],
    [{ ...FILL, 'recipient.4.email': 'evil@example.com' }, /agentCanEditEmail is not true/],
    [{ ...FILL, 'recipient.3.name': 'Evil' }, /agentCanEditName is not true/],
    [{ ...FILL, 'recipient.99.email': 'evil@example.com' }, /recipientId &quot;99&quot;: not a recipient/],
    [{ ...FILL, 'recipient.2.routingOrder': '1' }, /only by an editor/],
    [{ 'recipient.2.name': 'Sam' }, /Give a name and an e-mail address to recipient 2/],
    [{ ...FILL, 'recipient.2.email': 'sam@example.com>, evil@example.com' }, /INVALID_EMAIL_ADDRESS_FOR_RECIPIENT/],
    [{ ...FILL, 'recipient.2.name': 'x'.repeat(101) }, /a name of 1 to 100 characters/],
  ];
  for (const [fields, why] of attempts) {
    const res = await post(fields);
    assert.equal(res.status, 400, `${JSON.stringify(fields)}: ${res.status}`);
    assert.match(res.text, why);
    assert.match(res.text, /role="alert"/);
  }
  assert.deepEqual(await snapshot(), before, 'nothing changed');
  assert.equal(before[0]?.[4], 'delivered', 'the agent has not finished');
  // The other envelope's recipients are out of reach too: its agent's link changes only its own.
  assert.equal((await other.recipients()).signers[0]?.email ?? '', '');
  // A forged cross-site post without the page's CSRF token does nothing.
  const forged = await new FormClient(env.h.origin).post(`${other.path}/finish`, FILL);
  assert.equal(forged.status >= 400, true);
  assert.equal((await other.recipients()).agents[0]?.status === 'completed', false);
});

subtest('a stale agent link: after the agent finished, a second Finish changes nothing and says so (409)', async () => {
  const { post, recipients } = await openAgentPage('c');
  assert.equal((await post(FILL)).status, 303);
  const second = await post({ 'recipient.2.name': 'Mallory', 'recipient.2.email': 'mallory@example.com' });
  assert.equal(second.status, 409);
  assert.match(second.text, /This link can no longer change anything/);
  const listed = await recipients();
  assert.deepEqual([listed.signers[0]?.name, listed.signers[0]?.email], ['Sam', 'sam@example.com']);
  assert.equal(mailsTo('mallory@example.com'), 0);
});

subtest('an editor changes a given address and moves a recipient later; an intermediary fills in a blank; refused fields and lists are named', async () => {
  const res = await env.call('POST', '', {
    emailSubject: 'Editor', status: 'sent', documents: [{ documentId: '1', name: 'A.pdf', documentBase64: pdf }],
    recipients: {
      editors: [{ recipientId: '1', name: 'Eda Editor', email: 'editor-d@example.com', routingOrder: '1' }],
      signers: [{ recipientId: '2', name: 'Sid', email: 'sid-d@example.com', routingOrder: '2' }, { recipientId: '3', name: 'Tia', email: 'tia-d@example.com', routingOrder: '3' }],
      intermediaries: [{ recipientId: '5', name: 'Ian Intermediary', email: 'im-d@example.com', routingOrder: '4' }],
      carbonCopies: [{ recipientId: '6', routingOrder: '5' }],
    },
  });
  assert.equal(res.status, 201, res.text);
  const envelopeId = String(res.json().envelopeId);
  const editorPath = signingPathIn(await mailTo('editor-d@example.com'), env.h.origin);
  const editor = new FormClient(env.h.origin);
  const page = await editor.get(editorPath);
  assert.match(page.text, /You are an editor for these documents/);
  assert.doesNotMatch(page.text, /Recipient 6/, 'the intermediary speaks for the recipients after it');
  const done = await editor.post(`${editorPath}/finish`, { ...formFields(page.text, `${editorPath}/finish`), 'recipient.2.email': 'sid-new-d@example.com', 'recipient.2.routingOrder': '3', 'recipient.3.routingOrder': '2' });
  assert.equal(done.status, 303, done.text);
  await mailTo('tia-d@example.com');
  assert.equal(mailsTo('sid-new-d@example.com') + mailsTo('sid-d@example.com'), 0, 'moved after Tia');
  const listed = (await env.call('GET', `/${envelopeId}/recipients`)).json() as Recipients;
  assert.deepEqual(listed.signers.map((s) => [s.recipientId, s.email, s.routingOrder, s.status]), [['3', 'tia-d@example.com', '2', 'sent'], ['2', 'sid-new-d@example.com', '3', 'created']]);
  assert.deepEqual([listed.editors[0]?.recipientType, listed.editors[0]?.status, listed.intermediaries[0]?.recipientType, listed.intermediaries[0]?.status], ['editor', 'completed', 'intermediary', 'created']);

  const base = { emailSubject: 'S', status: 'created', documents: [{ documentId: '1', name: 'A.pdf', documentBase64: pdf }] };
  const refused = async (body: Record<string, unknown>, named: RegExp) => {
    const r = await env.call('POST', '', { ...base, ...body });
    assert.equal(r.status, 400, r.text);
    assert.match(`${String(r.json().errorCode)}: ${String(r.json().message)}`, named);
  };
  await refused({ recipients: { agents: [{ recipientId: '1', name: 'A', email: 'a@example.com', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '1', yPosition: '1' }] } }] } }, /signHereTabs is not allowed: an agent says who the later recipients are/);
  await refused({ recipients: { agents: [{ recipientId: '1', name: 'A', email: 'a@example.com', note: 'hi' }] } }, /\(Agent\): not supported: note \(/);
  // Without an agent before them, recipients need their name and e-mail as ever.
  await refused({ recipients: { signers: [{ recipientId: '1', routingOrder: '1' }] } }, /INVALID_EMAIL_ADDRESS_FOR_RECIPIENT/);
});

/** The recipient calls of the SDK's EnvelopesApi this test drives. */
type RecipientCalls = {
  createRecipient(accountId: string, envelopeId: string, opts: { recipients: unknown }): Promise<Recipients>;
  updateRecipients(accountId: string, envelopeId: string, opts: { recipients: unknown }): Promise<{ recipientUpdateResults: { recipientId: string; errorDetails?: { errorCode: string } }[] }>;
  deleteRecipients(accountId: string, envelopeId: string, opts: { recipients: unknown }): Promise<Recipients>;
  deleteRecipient(accountId: string, envelopeId: string, recipientId: string): Promise<Recipients>;
};

async function recipientCalls(token?: string): Promise<RecipientCalls> {
  const client = new docusign.ApiClient();
  client.setBasePath(`${env.h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${token ?? (await env.token()).access_token}`);
  return new docusign.EnvelopesApi(client) as unknown as RecipientCalls;
}

subtest('the sender adds, corrects and deletes agents, editors and intermediaries through the SDK; an editor sets an access code; the attacks change nothing', async () => {
  const api = await recipientCalls();
  const acc = env.seed.accountId;
  const res = await env.call('POST', '', {
    emailSubject: 'Added managers', status: 'sent', documents: [{ documentId: '1', name: 'A.pdf', documentBase64: pdf }],
    recipients: { signers: [{ recipientId: '1', name: 'First', email: 'first-e@example.com', routingOrder: '1', tabs: { signHereTabs: [{ anchorString: '/sn1/', anchorXOffset: '20' }] } }] },
  });
  assert.equal(res.status, 201, res.text);
  const envelopeId = String(res.json().envelopeId);
  // createRecipient: an editor, a signer after it left for the editor to name, an intermediary.
  const added = await api.createRecipient(acc, envelopeId, { recipients: {
    editors: [{ recipientId: '2', routingOrder: '2', name: 'Eve Editor', email: 'editor-e@example.com' }],
    signers: [{ recipientId: '3', routingOrder: '3' }],
    intermediaries: [{ recipientId: '4', routingOrder: '4', name: 'Ian', email: 'ian-e@example.com' }],
  } });
  assert.deepEqual([added.editors.map((r) => [r.recipientId, r.status]), added.signers.map((r) => [r.recipientId, r.email ?? '']), added.intermediaries.map((r) => r.recipientId)], [[['2', 'created']], [['3', '']], ['4']]);
  // updateRecipients and deleteRecipients take their lists.
  const corrected = await api.updateRecipients(acc, envelopeId, { recipients: { editors: [{ recipientId: '2', email: 'editor2-e@example.com' }], intermediaries: [{ recipientId: '4', name: 'Ivo' }] } });
  assert.deepEqual(corrected.recipientUpdateResults.map((r) => [r.recipientId, r.errorDetails]), [['2', undefined], ['4', undefined]]);
  assert.deepEqual((await api.deleteRecipients(acc, envelopeId, { recipients: { intermediaries: [{ recipientId: '4' }] } })).intermediaries.map((r) => r.recipientId), ['4']);

  // Refused, nothing changed: deleting the editor would leave signer 3 unnamed; a witness of a signer that
  // does not exist; a blank signer with nobody before it to name it; another account's call.
  assert.deepEqual(await sdkFailure(api.deleteRecipients(acc, envelopeId, { recipients: { editors: [{ recipientId: '2' }] } })), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(await sdkFailure(api.createRecipient(acc, envelopeId, { recipients: { witnesses: [{ recipientId: '7', name: 'W', email: 'w-e@example.com', witnessFor: '99', routingOrder: '5' }] } })), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual((await sdkFailure(api.createRecipient(acc, envelopeId, { recipients: { signers: [{ recipientId: '8', routingOrder: '1' }] } })))[0], 400);
  // Hidden documents on an envelope that does not enforce visibility would hide nothing (they were once dropped in silence).
  assert.deepEqual(await sdkFailure(api.createRecipient(acc, envelopeId, { recipients: { carbonCopies: [{ recipientId: '9', routingOrder: '9', name: 'C', email: 'c-e@example.com', excludedDocuments: ['1'] }] } })), [400, 'INVALID_REQUEST_BODY']);
  const other = await secondAccount(env.h);
  const theirs = await recipientCalls(other.token);
  assert.deepEqual(await sdkFailure(theirs.createRecipient(other.accountId, envelopeId, { recipients: { editors: [{ recipientId: '6', routingOrder: '2', name: 'Mal', email: 'mal-e@example.com' }] } })), [400, 'ENVELOPE_DOES_NOT_EXIST']);
  assert.deepEqual(await sdkFailure(theirs.updateRecipients(other.accountId, envelopeId, { recipients: { editors: [{ recipientId: '2', email: 'mal-e@example.com' }] } })), [400, 'ENVELOPE_DOES_NOT_EXIST']);
  const listed = (await env.call('GET', `/${envelopeId}/recipients`)).json() as Recipients;
  assert.deepEqual([listed.editors.map((r) => r.email), listed.signers.map((r) => r.recipientId), listed.intermediaries], [['editor2-e@example.com'], ['1', '3'], []]);

  // The first signer signs; the editor names signer 3 and sets an access code. A field the page does not change is refused by name first.
  const first = await drawnSignatureFinish(new FormClient(env.h.origin), signingPathIn(await mailTo('first-e@example.com'), env.h.origin));
  assert.equal((await first(makeSignaturePng(600, 200))).status, 303);
  const editorPath = signingPathIn(await mailTo('editor2-e@example.com'), env.h.origin);
  const editor = new FormClient(env.h.origin);
  const page = await editor.get(editorPath);
  assert.match(page.text, /set an access code they must enter/);
  const name = { 'recipient.3.name': 'Sue', 'recipient.3.email': 'sue-e@example.com' };
  const sneaky = await editor.post(`${editorPath}/finish`, { ...formFields(page.text, `${editorPath}/finish`), ...name, 'recipient.3.phoneAuthentication': 'x' });
  assert.equal(sneaky.status, 400);
  assert.match(sneaky.text, /recipient\.3\.phoneAuthentication: a recipient.{1,6}s phoneAuthentication cannot be changed on this page/);
  const again = await editor.get(editorPath);
  const done = await editor.post(`${editorPath}/finish`, { ...formFields(again.text, `${editorPath}/finish`), ...name, 'recipient.3.accessCode': 'tulip-42' });
  assert.equal(done.status, 303, done.text);
  // Sue's link asks for the code before anything else.
  const sue = await new FormClient(env.h.origin).get(signingPathIn(await mailTo('sue-e@example.com'), env.h.origin));
  assert.match(sue.text, /Enter your access code/);
  const audit = (await env.call('GET', `/${envelopeId}/audit_events`)).text;
  assert.match(audit, /Eve Editor \(editor\) changed recipient 3: name set to \\?"Sue\\?", e-mail set to sue-e@example\.com, access code set\./);
  assert.doesNotMatch(audit, /tulip-42/);
  // The editor is done: corrected or deleted no more.
  const late = await api.updateRecipients(acc, envelopeId, { recipients: { editors: [{ recipientId: '2', name: 'Late' }] } });
  assert.equal(late.recipientUpdateResults[0]?.errorDetails?.errorCode, 'RECIPIENT_UPDATE_FAILED');
  assert.deepEqual(await sdkFailure(api.deleteRecipient(acc, envelopeId, '2')), [400, 'RECIPIENT_UPDATE_FAILED']);
});

test('agents, editors and intermediaries (Agent, Editor, Intermediary)', async (t: TestContext) => {
  smtp = await startSmtpListener(t);
  env = await startReminderEsign(t, smtp.url);
  pdf = b64(await samplePdf(1, 'Contract /sn1/'));
  for (const [name, body] of subtests) await t.test(name, body);
});
