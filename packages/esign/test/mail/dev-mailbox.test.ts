import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import { request } from 'undici';
import { pollUntil } from '@signet/kit';
import { extractText, readFormFields, removeFormFields, validatePdf } from '@signet/pdf';
import { devMailboxExposureWarning } from '../../src/mail/dev-mailbox-routes.ts';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { startEnvelopeEsign } from '../support/envelope-harness.ts';
import { seedUserAndApp } from '../support/esign-harness.ts';
import { FormClient, hiddenField } from '../support/form-client.ts';

test('without SMTP_URL a sent envelope’s mail lands in the dev mailbox: listed, shown with a clickable link, HTML part sandboxed', async (t) => {
  // PDFs pass through, parsed in-thread (the SDK test converts html/docx with the real converter).
  const converter = { convert: ({ bytes }: { bytes: Uint8Array }) => validatePdf(bytes).then(() => bytes), extractText, readFormFields, removeFormFields };
  const h = await startEnvelopeEsign(t, { converter });
  assert.equal(h.config.smtpUrl, undefined);
  const seed = await seedUserAndApp(h);
  const code = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  const { access_token: token } = (await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret })).json() as { access_token: string };
  const pdf = await PDFDocument.create();
  pdf.addPage([612, 792]);
  const create = await request(`${h.origin}/restapi/v2.1/accounts/${seed.accountId}/envelopes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      emailSubject: 'Sign <b>this</b>',
      status: 'sent',
      documents: [{ documentId: 1, name: 'Blank', fileExtension: 'pdf', documentBase64: Buffer.from(await pdf.save()).toString('base64') }],
      recipients: { signers: [{ email: 'dev@example.com', name: 'Dev <Signer>', recipientId: 1, tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '100' }] } }] },
    }),
  });
  assert.equal(create.statusCode, 201, await create.body.text().catch(() => ''));

  const list = await pollUntil(async () => {
    const res = await request(`${h.origin}/dev/mailbox`);
    const text = await res.body.text();
    return text.includes('Sign &lt;b&gt;this&lt;/b&gt;') ? text : undefined;
  }, { timeoutMs: 10_000, intervalMs: 50, what: 'message listed in the dev mailbox' });
  assert.ok(!list.includes('<b>this</b>'), 'subjects are escaped');
  const id = /href="\/dev\/mailbox\/([0-9a-f-]{36})"/.exec(list)?.[1];
  assert.ok(id);

  const show = await request(`${h.origin}/dev/mailbox/${id}`);
  const page = await show.body.text();
  assert.equal(show.statusCode, 200);
  const link = new RegExp(`<a href="(${h.origin}/signing/[A-Za-z0-9_-]{43})">`).exec(page)?.[1];
  assert.ok(link, 'the signing link is clickable');
  assert.ok(page.includes('Dev &lt;Signer&gt;'));

  const part = await request(`${h.origin}/dev/mailbox/${id}/html`);
  assert.equal(part.statusCode, 200);
  assert.match(String(part.headers['content-security-policy']), /^sandbox; default-src 'none'/);
  const htmlPart = await part.body.text();
  assert.ok(htmlPart.includes(`href="${link}"`));
  assert.ok(htmlPart.includes('Dev &lt;Signer&gt;, please sign'), 'user values are escaped in the mail itself');

  const missing = await request(`${h.origin}/dev/mailbox/00000000-0000-4000-8000-000000000000`);
  assert.equal(missing.statusCode, 404);
  await missing.body.dump();

  // A client elsewhere, as the gateway forwards it (X-Forwarded-For from a loopback peer), sees
  // none of it: the same 404 as an unknown page, for every mailbox page.
  for (const path of ['/dev/mailbox', `/dev/mailbox/${id}`, `/dev/mailbox/${id}/html`, `/dev/mailbox/${id}/attachments/0`, '/dev/mailbox/']) {
    const remote = await request(`${h.origin}${path}`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    const text = await remote.body.text();
    assert.equal(remote.statusCode, 404, path);
    assert.doesNotMatch(text, /signing|Dev &lt;Signer|Sign &lt;b/, path);
  }
  // A local client behind the gateway still reads it.
  const local = await request(`${h.origin}/dev/mailbox`, { headers: { 'x-forwarded-for': '127.0.0.1' } });
  assert.equal(local.statusCode, 200);
  await local.body.dump();

  // A passcode "sent" by text message lands in the same page (mail/dev-text-outbox.ts): no SMS provider is wired.
  const sms = await request(`${h.origin}/restapi/v2.1/accounts/${seed.accountId}/envelopes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      emailSubject: 'Texted', status: 'sent',
      documents: [{ documentId: 1, name: 'Blank', fileExtension: 'pdf', documentBase64: Buffer.from(await pdf.save()).toString('base64') }],
      recipients: { signers: [{ email: 'texted@example.com', name: 'Tex', recipientId: 1, smsAuthentication: { senderProvidedNumbers: ['+44 7700 900123'] }, idCheckConfigurationName: 'SMS Auth $', requireIdLookup: true }] },
    }),
  });
  assert.equal(sms.statusCode, 201, await sms.body.text());
  const smsList = await pollUntil(async () => {
    const text = await (await request(`${h.origin}/dev/mailbox`)).body.text();
    return /href="\/dev\/mailbox\/([0-9a-f-]{36})">Texted/.exec(text)?.[1];
  }, { timeoutMs: 10_000, intervalMs: 50, what: 'the Texted mail' });
  const smsMail = await (await request(`${h.origin}/dev/mailbox/${smsList}`)).body.text();
  const signing = new URL(new RegExp(`<a href="(${h.origin}/signing/[A-Za-z0-9_-]{43})">`).exec(smsMail)?.[1] ?? assert.fail('a signing link')).pathname;
  const browser = new FormClient(h.origin);
  const gate = await browser.get(signing);
  assert.equal((await browser.post(`${signing}/passcode/send`, { _csrf: hiddenField(gate.text, '_csrf'), destination: '0', channel: 'sms' })).status, 200);
  const texts = await (await request(`${h.origin}/dev/mailbox`)).body.text();
  assert.match(texts, /text to \+447700900123<\/td><td>Your Signet passcode is \d{6}\./);
  const remoteTexts = await request(`${h.origin}/dev/mailbox`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
  assert.equal(remoteTexts.statusCode, 404);
  assert.doesNotMatch(await remoteTexts.body.text(), /passcode/);
});

test('the dev mailbox warns at start only when PUBLIC_URL is not on this machine', () => {
  assert.equal(devMailboxExposureWarning('https://localhost:8443'), undefined);
  assert.equal(devMailboxExposureWarning('http://127.0.0.1:3001'), undefined);
  assert.equal(devMailboxExposureWarning('http://[::1]:3001'), undefined);
  assert.match(devMailboxExposureWarning('https://sign.example.com') ?? '', /SMTP_URL is not set.*PUBLIC_URL https:\/\/sign\.example\.com/);
  assert.match(devMailboxExposureWarning('http://10.0.0.5:8000') ?? '', /not on this machine/);
});
