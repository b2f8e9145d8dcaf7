import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import type { ParsedMail } from 'mailparser';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, pollUntil } from '@signet/kit';
import { listenOnLoopback } from '@signet/kit/testing';
import { buildConverter, type Converter } from '@signet/pdf';
import { startSmtpListener, type SmtpListener } from '../support/smtp-listener.ts';
import { suiteContext } from '../support/esign-harness.ts';
import { b64, samplePdf, startSigningEsign, type SigningHarness } from './signing-harness.ts';

const run = promisify(execFile);

// The official SDK, unmodified (CommonJS, no typings): only the calls used here are typed.
type SdkEnvelopesApi = {
  createRecipientView(accountId: string, envelopeId: string, opts: { recipientViewRequest: unknown }): Promise<{ url: string }>;
  listAuditEvents(accountId: string, envelopeId: string): Promise<{ auditEvents: { eventFields: { name: string; value: string }[] }[] }>;
  getDocument(accountId: string, envelopeId: string, documentId: string, opts?: Record<string, string>): Promise<Buffer>;
};
type Sdk = { ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void }; EnvelopesApi: new (client: unknown) => SdkEnvelopesApi };
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

function sdkFor(h: SigningHarness): SdkEnvelopesApi {
  const client = new docusign.ApiClient();
  client.setBasePath(`${h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${h.token}`);
  return new docusign.EnvelopesApi(client);
}

// One browser, one converter, one SMTP listener and one esign for the whole file (the house
// rule: share the browser and the servers). Each test has envelopes and mail addresses of its own.
let browser: Browser;
let converter: Converter;
let smtp: SmtpListener;
let h: SigningHarness;
const suite = suiteContext();
before(async () => {
  [browser, converter, smtp] = await Promise.all([launchChromium(), buildConverter({ officeWorkers: 1, htmlPages: 1 }), startSmtpListener(suite.ctx)]);
  h = await startSigningEsign(suite.ctx, { converter, smtpUrl: smtp.url });
});
after(async () => {
  await suite.close();
  await browser.close();
  await converter.close();
});

type Signer = { email: string; name: string; recipientId: string; routingOrder: number; clientUserId?: string; tabs: { pageNumber: number; x: number; y: number }[] };

async function createEnvelope(h: SigningHarness, signers: Signer[], carbonCopies: { email: string; name: string; recipientId: string; routingOrder: number }[] = []): Promise<string> {
  const res = await h.api('POST', '/envelopes', {
    emailSubject: 'Please sign the service agreement',
    documents: [{ documentBase64: b64(await samplePdf(2)), documentId: '1', fileExtension: 'pdf', name: 'Service agreement' }],
    recipients: {
      signers: signers.map((s) => ({
        email: s.email, name: s.name, recipientId: s.recipientId, routingOrder: String(s.routingOrder),
        ...(s.clientUserId ? { clientUserId: s.clientUserId } : {}),
        tabs: { signHereTabs: s.tabs.map((t) => ({ documentId: '1', pageNumber: String(t.pageNumber), xPosition: String(t.x), yPosition: String(t.y) })) },
      })),
      carbonCopies,
    },
    status: 'sent',
  });
  assert.equal(res.status, 201, await res.clone().text());
  return ((await res.json()) as { envelopeId: string }).envelopeId;
}

function mailTo(smtp: SmtpListener, email: string, subject?: RegExp): ParsedMail[] {
  return smtp.received.filter((m) => m.to && !Array.isArray(m.to) && m.to.value[0]?.address === email && (!subject || subject.test(m.subject ?? '')));
}

/** The signing link: a plain URL on its own line in the text part (docs/esign-envelopes.md, "Signing links"). */
async function signingLink(smtp: SmtpListener, email: string): Promise<string> {
  const mail = await pollUntil(() => mailTo(smtp, email, /^Please sign/)[0], { timeoutMs: 15_000, intervalMs: 25, what: `signing mail to ${email}` });
  const link = /^(https?:\/\/\S+\/signing\/\S+)$/m.exec(mail.text ?? '')?.[1];
  assert.ok(link, `no signing link in: ${mail.text}`);
  return link;
}

async function envelopeStatus(h: SigningHarness, envelopeId: string) {
  return (await (await h.api('GET', `/envelopes/${envelopeId}?include=recipients`)).json()) as {
    status: string; deliveredDateTime?: string; completedDateTime?: string; declinedDateTime?: string;
    recipients: { signers: { recipientId: string; status: string; deliveredDateTime?: string; signedDateTime?: string; declinedDateTime?: string; declinedReason?: string }[]; carbonCopies: { status: string }[] };
  };
}

/** Adopts (typed, or drawn with the mouse) on the first tab, signs the rest, and finishes. */
async function signAll(page: Page, how: 'typed' | 'drawn'): Promise<void> {
  const tabs = page.getByRole('button', { name: /Sign here/ });
  const count = await tabs.count();
  assert.ok(count > 0, 'the signer has tabs to sign');
  await tabs.first().click();
  if (how === 'drawn') {
    await page.getByRole('radio', { name: 'Draw' }).check();
    const pad = page.getByLabel('Draw your signature here');
    const box = await pad.boundingBox();
    assert.ok(box);
    await page.mouse.move(box.x + 20, box.y + box.height * 0.7);
    await page.mouse.down();
    for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + 20 + i * (box.width - 40) / 12, box.y + box.height * (i % 2 === 0 ? 0.3 : 0.7), { steps: 3 });
    await page.mouse.up();
  }
  await page.getByRole('button', { name: 'Adopt and sign' }).click();
  // After adopting, each remaining tab signs with one click.
  while ((await tabs.count()) > 0) await tabs.first().click();
  await page.getByRole('button', { name: 'Finish' }).click();
  await page.getByRole('heading', { name: 'Thank you for signing' }).waitFor();
}

/** Gray pixels of one page, rendered by poppler at 72 dpi (1 px = 1 pt). */
async function renderGray(pdf: Uint8Array, pageNumber: number): Promise<{ width: number; height: number; at(x: number, y: number): number }> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-sign-render-'));
  try {
    await writeFile(join(dir, 'in.pdf'), pdf);
    await run('pdftoppm', ['-gray', '-r', '72', '-f', String(pageNumber), '-l', String(pageNumber), '-singlefile', join(dir, 'in.pdf'), join(dir, 'out')]);
    const pgm = await readFile(join(dir, 'out.pgm'));
    const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString('latin1'));
    assert.ok(header, 'a binary PGM');
    const width = Number(header[1]);
    const offset = header[0].length;
    return { width, height: Number(header[2]), at: (x, y) => pgm[offset + y * width + x] ?? 255 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function darkPixels(img: { at(x: number, y: number): number }, box: { x: number; y: number; width: number; height: number }): number {
  let n = 0;
  for (let y = box.y; y < box.y + box.height; y++) for (let x = box.x; x < box.x + box.width; x++) if (img.at(x, y) < 160) n++;
  return n;
}

async function pdfsig(pdf: Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-sign-pdfsig-'));
  try {
    await writeFile(join(dir, 'in.pdf'), pdf);
    // pdfsig exits non-zero for an invalid signature; its report is what counts.
    const out = await run('pdfsig', [join(dir, 'in.pdf')]).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
    return out.stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function auditActions(h: SigningHarness, envelopeId: string) {
  const res = await h.api('GET', `/envelopes/${envelopeId}/audit_events`);
  assert.equal(res.status, 200);
  const body = (await res.json()) as { auditEvents: { eventFields: { name: string; value: string }[] }[] };
  return body.auditEvents.map((e) => Object.fromEntries(e.eventFields.map((f) => [f.name, f.value])));
}

test('two signers in sequence and a carbon copy: mail link → adopt → sign → finish; routing, completion mail, sealed PDF', async (t) => {
  const tabFirst = { pageNumber: 2, x: 160, y: 500 };
  const envelopeId = await createEnvelope(h, [
    { email: 'first@example.com', name: 'Fiona First', recipientId: '1', routingOrder: 1, tabs: [tabFirst, { pageNumber: 1, x: 160, y: 400 }] },
    { email: 'second@example.com', name: 'Sam Second', recipientId: '2', routingOrder: 2, tabs: [{ pageNumber: 2, x: 360, y: 600 }] },
  ], [{ email: 'copy@example.com', name: 'Casey Copy', recipientId: '3', routingOrder: 2 }]);

  // Signer 1 on a phone-sized screen, typed signature.
  const first = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  t.after(() => first.close());
  const page1 = await first.newPage();
  const opened = await page1.goto(await signingLink(smtp, 'first@example.com'));
  // The signing scope's CSP: same-origin script and font, still no framing, no inline script.
  const csp = opened?.headers()['content-security-policy'] ?? '';
  assert.match(csp, /script-src 'self'/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.doesNotMatch(csp, /unsafe-inline/);
  assert.equal(opened?.headers()['cache-control'], 'no-store');
  assert.equal(mailTo(smtp, 'second@example.com').length, 0, 'order 2 is not told before order 1 signs');
  assert.equal(await page1.locator('img.render').count(), 2, 'every page of the document is shown');
  // The tab sits where the tab is: left edge at 160/612 of the page image's width.
  const tab = page1.getByRole('button', { name: /Sign here/ }).first();
  const [tabBox, pageBox] = [await tab.boundingBox(), await page1.locator('.page').first().boundingBox()];
  assert.ok(tabBox && pageBox);
  assert.ok(Math.abs((tabBox.x - pageBox.x) / pageBox.width - 160 / 612) < 0.01, 'tab x matches its position on the page');
  const viewed = await envelopeStatus(h, envelopeId);
  assert.equal(viewed.status, 'delivered');
  assert.equal(viewed.recipients.signers[0]?.status, 'delivered');
  assert.ok(viewed.recipients.signers[0]?.deliveredDateTime);
  await signAll(page1, 'typed');

  // Finish is idempotent: the same form posted again changes nothing.
  const csrf = (await first.cookies()).find((c) => c.name === 'signet_csrf')?.value ?? '';
  const again = await page1.request.post(`${new URL(page1.url()).pathname.replace(/\/done$/, '')}/finish`.replace(/^/, h.origin), { form: { _csrf: csrf, signatureKind: 'typed', signatureText: 'Someone Else', signedTabs: '' }, maxRedirects: 0 });
  assert.equal(again.status(), 303);

  // Order 2 is reached: the second signer's link and the copy's notice.
  const secondLink = await signingLink(smtp, 'second@example.com');
  await pollUntil(() => mailTo(smtp, 'copy@example.com')[0], { timeoutMs: 10_000, intervalMs: 25, what: 'carbon copy notice' });
  const middle = await envelopeStatus(h, envelopeId);
  assert.equal(middle.recipients.signers[0]?.status, 'completed');
  assert.equal(middle.recipients.signers[1]?.status, 'sent');
  assert.notEqual(middle.status, 'completed');

  // Signer 2 draws a signature with the mouse on a desktop screen.
  const second = await browser.newContext();
  t.after(() => second.close());
  const page2 = await second.newPage();
  await page2.goto(secondLink);
  await signAll(page2, 'drawn');

  // Completion: everyone (signers and copy) gets the sealed PDF attached.
  for (const email of ['first@example.com', 'second@example.com', 'copy@example.com']) {
    const mail = await pollUntil(() => mailTo(smtp, email, /^Completed:/)[0], { timeoutMs: 30_000, intervalMs: 50, what: `completion mail to ${email}` });
    assert.equal(mail.attachments[0]?.contentType, 'application/pdf');
  }
  const done = await envelopeStatus(h, envelopeId);
  assert.equal(done.status, 'completed');
  assert.ok(done.completedDateTime);

  const combinedRes = await h.api('GET', `/envelopes/${envelopeId}/documents/combined?certificate=true`);
  assert.equal(combinedRes.status, 200);
  assert.equal(combinedRes.headers.get('content-type'), 'application/pdf');
  const combined = new Uint8Array(await combinedRes.arrayBuffer());
  const attached = mailTo(smtp, 'copy@example.com', /^Completed:/)[0]?.attachments[0]?.content;
  assert.ok(attached && Buffer.compare(attached, Buffer.from(combined)) === 0, 'the mail carries the stored sealed PDF');
  const report = await pdfsig(combined);
  assert.match(report, /Signature #1/);
  assert.doesNotMatch(report, /Signature #2/, 'ONE seal');
  assert.match(report, /Total document signed/);
  assert.match(report, /Signature is Valid/);
  const tampered = Buffer.from(combined);
  tampered[7] = tampered[7] === 0x36 ? 0x37 : 0x36; // "%PDF-1.x": inside the signed range
  assert.doesNotMatch(await pdfsig(tampered), /Signature is Valid/);

  // The signature image is where the tab was: page 2 of the combined PDF, box 144×40 at (160, 500).
  const signed = await renderGray(combined, 2);
  const original = await renderGray(await samplePdf(2), 2);
  const box = { x: tabFirst.x, y: tabFirst.y, width: 144, height: 40 };
  assert.equal(darkPixels(original, box), 0, 'the tab area was blank before signing');
  assert.ok(darkPixels(signed, box) > 80, 'ink inside the tab');
  assert.equal(darkPixels(signed, { x: 160, y: 300, width: 144, height: 40 }), 0, 'no ink away from the tabs');
  assert.ok(darkPixels(signed, { x: 360, y: 600, width: 144, height: 40 }) > 80, 'the drawn signature is inside its tab');

  // documents/{id} is now the stamped document; documents/certificate the certificate alone.
  const doc1 = new Uint8Array(await (await h.api('GET', `/envelopes/${envelopeId}/documents/1`)).arrayBuffer());
  assert.ok(darkPixels(await renderGray(doc1, 2), box) > 80);
  const certificate = await h.api('GET', `/envelopes/${envelopeId}/documents/certificate`);
  assert.equal(certificate.status, 200);
  assert.match(await pdfsig(new Uint8Array(await certificate.arrayBuffer())), /Signature is Valid/);

  // The audit trail, in order, with IP and user agent for the signers' own actions.
  const events = await auditActions(h, envelopeId);
  assert.deepEqual(events.map((e) => `${e.Action}:${e.RecipientId}`), ['Sent:1', 'Viewed:1', 'Signed:1', 'Sent:2', 'Sent:3', 'Viewed:2', 'Signed:2', 'Completed:']);
  for (const e of events.filter((x) => x.Action === 'Signed' || x.Action === 'Viewed')) {
    assert.equal(e.ClientIPAddress, '127.0.0.1');
    assert.match(e.UserAgent ?? '', /Chrome/);
  }
  // Reopening a link after completion says so, and offers the same sealed PDF for download.
  const firstLink = await signingLink(smtp, 'first@example.com');
  await page1.goto(firstLink);
  await page1.getByRole('heading', { name: 'Thank you for signing' }).waitFor();
  const download = await page1.request.get(`${firstLink}/download`);
  assert.equal(download.status(), 200);
  assert.equal(Buffer.compare(await download.body(), Buffer.from(combined)), 0);
});

test('a parallel pair: both are asked at once, finish concurrently, and the envelope completes once', async (t) => {
  const envelopeId = await createEnvelope(h, [
    { email: 'ann@example.com', name: 'Ann Parallel', recipientId: '1', routingOrder: 1, tabs: [{ pageNumber: 1, x: 100, y: 500 }] },
    { email: 'bob@example.com', name: 'Bob Parallel', recipientId: '2', routingOrder: 1, tabs: [{ pageNumber: 1, x: 350, y: 500 }] },
  ]);
  const links = await Promise.all(['ann@example.com', 'bob@example.com'].map((e) => signingLink(smtp, e)));
  const contexts = await Promise.all(links.map(() => browser.newContext()));
  t.after(() => Promise.all(contexts.map((c) => c.close())));
  const pages = await Promise.all(contexts.map((c) => c.newPage()));
  await Promise.all(pages.map((p, i) => p.goto(links[i] ?? '')));
  // Adopt on both pages, then press both Finish buttons together.
  for (const p of pages) {
    await p.getByRole('button', { name: /Sign here/ }).first().click();
    await p.getByRole('button', { name: 'Adopt and sign' }).click();
  }
  await Promise.all(pages.map((p) => p.getByRole('button', { name: 'Finish' }).click()));
  await Promise.all(pages.map((p) => p.getByRole('heading', { name: 'Thank you for signing' }).waitFor()));
  await pollUntil(async () => (await envelopeStatus(h, envelopeId)).status === 'completed', { timeoutMs: 120_000, intervalMs: 50, what: 'completion' });
  const events = await auditActions(h, envelopeId);
  assert.equal(events.filter((e) => e.Action === 'Signed').length, 2);
  assert.equal(events.filter((e) => e.Action === 'Completed').length, 1);
  await pollUntil(() => mailTo(smtp, 'bob@example.com', /^Completed:/).length === 1 && mailTo(smtp, 'ann@example.com', /^Completed:/).length === 1, { timeoutMs: 15_000, intervalMs: 50, what: 'one completion mail each' });
  const combined = new Uint8Array(await (await h.api('GET', `/envelopes/${envelopeId}/documents/combined`)).arrayBuffer());
  const img = await renderGray(combined, 1);
  assert.ok(darkPixels(img, { x: 100, y: 500, width: 144, height: 40 }) > 80);
  assert.ok(darkPixels(img, { x: 350, y: 500, width: 144, height: 40 }) > 80);
});

test('decline with a reason: the signer and the envelope are declined, the link then says so', async (t) => {
  const envelopeId = await createEnvelope(h, [{ email: 'dee@example.com', name: 'Dee Decliner', recipientId: '1', routingOrder: 1, tabs: [{ pageNumber: 1, x: 100, y: 500 }] }]);
  const link = await signingLink(smtp, 'dee@example.com');
  // As behind the gateway, which appends the client's address to X-Forwarded-For.
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.9' } });
  t.after(() => context.close());
  const page = await context.newPage();
  await page.goto(link);
  await page.getByRole('button', { name: 'Decline' }).click();
  await page.getByLabel('Reason for declining').fill('The fee on page 2 is wrong.');
  await page.getByRole('button', { name: 'Decline to sign' }).click();
  await page.getByRole('heading', { name: 'Declined' }).waitFor();
  const status = await envelopeStatus(h, envelopeId);
  assert.equal(status.status, 'declined');
  assert.ok(status.declinedDateTime);
  assert.equal(status.recipients.signers[0]?.status, 'declined');
  assert.ok(status.recipients.signers[0]?.declinedDateTime);
  const events = await auditActions(h, envelopeId);
  assert.deepEqual(events.map((e) => e.Action), ['Sent', 'Viewed', 'Declined']);
  assert.match(events[2]?.Message ?? '', /The fee on page 2 is wrong\./);
  assert.equal(events[2]?.ClientIPAddress, '203.0.113.9');
  await page.goto(link);
  await page.getByRole('heading', { name: 'Declined' }).waitFor();
  assert.equal(await page.getByRole('button', { name: /Sign here/ }).count(), 0);
  // The sender is told, with the reason.
  const told = await pollUntil(() => smtp.received.find((m) => m.subject === 'Declined: Please sign the service agreement'), { timeoutMs: 15_000, intervalMs: 25, what: 'the decline mail to the sender' });
  assert.match(told.text ?? '', /Dee Decliner <dee@example.com> declined/);
  assert.match(told.text ?? '', /Reason: The fee on page 2 is wrong\./);
});

test('embedded signing: createRecipientView → single-use URL → sign → returnUrl?event=signing_complete; a later order is "not your turn yet"', async (t) => {
  // The integrator's return page.
  const returned: string[] = [];
  const app = createServer((req, res) => {
    returned.push(req.url ?? '');
    res.end('back at the app');
  });
  const port = await listenOnLoopback(app);
  t.after(() => new Promise<void>((resolve) => app.close(() => resolve())));
  const returnUrl = `http://127.0.0.1:${port}/ds-return?state=123`;
  const envelopeId = await createEnvelope(h, [
    { email: 'emb@example.com', name: 'Emma Embedded', recipientId: '1', routingOrder: 1, clientUserId: '1001', tabs: [{ pageNumber: 1, x: 100, y: 500 }] },
    { email: 'later@example.com', name: 'Lou Later', recipientId: '2', routingOrder: 2, clientUserId: '1002', tabs: [{ pageNumber: 1, x: 350, y: 500 }] },
  ]);
  const view = async (body: Record<string, unknown>) => h.api('POST', `/envelopes/${envelopeId}/views/recipient`, { returnUrl, authenticationMethod: 'none', ...body });

  const bad = await view({ email: 'emb@example.com', userName: 'Emma Embedded', clientUserId: 'wrong' });
  assert.equal(bad.status, 400);
  assert.equal(((await bad.json()) as { errorCode: string }).errorCode, 'UNKNOWN_ENVELOPE_RECIPIENT');

  const context = await browser.newContext();
  t.after(() => context.close());
  const page = await context.newPage();
  const laterRes = await view({ email: 'later@example.com', userName: 'Lou Later', clientUserId: '1002' });
  assert.equal(laterRes.status, 201);
  await page.goto(((await laterRes.json()) as { url: string }).url);
  await page.getByRole('heading', { name: 'Not your turn yet' }).waitFor();

  // The real SDK's createRecipientView (the body docusign-esign src/model/RecipientViewRequest.js sends).
  const sdk = sdkFor(h);
  const { url } = await sdk.createRecipientView(h.accountId, envelopeId, { recipientViewRequest: { returnUrl, authenticationMethod: 'none', email: 'emb@example.com', userName: 'Emma Embedded', clientUserId: '1001', pingFrequency: '600' } });
  assert.ok(url.startsWith(`${h.origin}/signing/view/`));
  await page.goto(url);
  assert.equal(new URL(page.url()).pathname, '/signing/session', 'the view URL is traded for a session cookie');
  await page.getByRole('button', { name: /Sign here/ }).first().click();
  await page.getByRole('button', { name: 'Adopt and sign' }).click();
  await page.getByRole('button', { name: 'Finish' }).click();
  await page.waitForURL((u) => u.port === String(port));
  const back = new URL(page.url());
  assert.equal(back.searchParams.get('event'), 'signing_complete');
  assert.equal(back.searchParams.get('state'), '123');
  assert.ok(mailTo(smtp, 'emb@example.com').every((m) => !/\/signing\//.test(m.text ?? '')), 'embedded signers get no signing link by mail');

  // The URL was single-use: a second visit goes back with ttl_expired.
  await page.goto(url);
  await page.waitForURL((u) => u.port === String(port) && u.searchParams.get('event') === 'ttl_expired');
  const status = await envelopeStatus(h, envelopeId);
  assert.equal(status.recipients.signers[0]?.status, 'completed');
  assert.equal(status.recipients.signers[1]?.status, 'sent');
  // listAuditEvents and getDocument('combined') through the SDK: its models read our wire shapes.
  const audit = await sdk.listAuditEvents(h.accountId, envelopeId);
  assert.deepEqual(audit.auditEvents.map((e) => e.eventFields.find((f) => f.name === 'Action')?.value), ['Sent', 'Viewed', 'Signed', 'Sent']);
  const combined = await sdk.getDocument(h.accountId, envelopeId, 'combined', { certificate: 'true' });
  assert.equal(Buffer.from(combined).subarray(0, 5).toString('latin1'), '%PDF-');
});
