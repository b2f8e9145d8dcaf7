// Focused view (docs/esign-signing.md, "Focused view"): a recipient view with frameAncestors and
// messageOrigins may be framed by exactly those origins, posts its events to the framing page,
// and keeps working in a browser that blocks third-party cookies (Chromium headless does).
// The integrator's page is served on http://localhost, esign on http://127.0.0.1: two sites.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import type { Browser, Frame, Page } from 'playwright-core';
import { launchChromium, pollUntil } from '@signet/kit';
import { listenOnLoopback } from '@signet/kit/testing';
import { buildConverter, type Converter } from '@signet/pdf';
import { b64, samplePdf, startSigningEsign, type SigningHarness } from './signing-harness.ts';

type SdkEnvelopesApi = { createRecipientView(accountId: string, envelopeId: string, opts: { recipientViewRequest: unknown }): Promise<{ url: string }> };
type Sdk = { ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void }; EnvelopesApi: new (client: unknown) => SdkEnvelopesApi; RecipientViewRequest: new () => Record<string, unknown> };
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

let browser: Browser;
let converter: Converter;
let h: SigningHarness;
let sdk: SdkEnvelopesApi;
/** The integrator's site: a page that frames ?src= and records the messages it gets, and the return page. */
let appPort: number;
let appOrigin: string;
let otherOrigin: string;

before(async () => {
  [browser, converter] = await Promise.all([launchChromium(), buildConverter({ officeWorkers: 1, htmlPages: 1 })]);
});
after(async () => {
  await browser.close();
  await converter.close();
});

test('focused view', async (t) => {
  h = await startSigningEsign(t, { converter });
  const client = new docusign.ApiClient();
  client.setBasePath(`${h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${h.token}`);
  sdk = new docusign.EnvelopesApi(client);
  const app = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/host') {
      // The script records every message with its origin, as an integrator's listener would see it.
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>host</title>
<script>window.messages = []; addEventListener('message', (e) => window.messages.push({ origin: e.origin, data: e.data }));</script>
<iframe name="signing" src="${url.searchParams.get('src') ?? ''}" width="900" height="700"></iframe>`);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>back</title><p>back at the app</p>');
  });
  appPort = await listenOnLoopback(app);
  t.after(() => new Promise<void>((resolve) => app.close(() => resolve())));
  appOrigin = `http://localhost:${appPort}`;
  otherOrigin = 'https://apps.example.com';

  await t.test('the SDK example body frames the signing in the listed origin, which hears ready and sessionEnd', async (st) => {
    const envelopeId = await embeddedEnvelope('fv1@example.com', 'Fay Framed', '2001');
    // The body DocuSign's focusedView example sends (lib/eSignature/examples/focusedView.js).
    const request = new docusign.RecipientViewRequest();
    Object.assign(request, {
      returnUrl: `${appOrigin}/ds-return?state=123`, authenticationMethod: 'none', email: 'fv1@example.com', userName: 'Fay Framed', clientUserId: '2001',
      pingFrequency: 600, frameAncestors: [appOrigin, otherOrigin], messageOrigins: [appOrigin],
    });
    const { url } = await sdk.createRecipientView(h.accountId, envelopeId, { recipientViewRequest: request });
    const { page, frame } = await hostPage(st, url);
    await frame.getByRole('button', { name: /Sign here/ }).first().click();
    await frame.getByRole('button', { name: 'Adopt and sign' }).click();
    await frame.getByRole('button', { name: 'Finish' }).click();
    const messages = await pollUntil(async () => {
      const m = await page.evaluate<{ origin: string; data: Record<string, string> }[]>('window.messages');
      return m.some((x) => x.data.type === 'sessionEnd') ? m : undefined;
    }, { timeoutMs: 15_000, intervalMs: 50, what: 'the sessionEnd message' });
    assert.deepEqual(messages.map((m) => [m.origin, m.data.source, m.data.type, m.data.sessionEndType]), [
      [h.origin, 'signet', 'ready', undefined],
      [h.origin, 'signet', 'sessionEnd', 'signing_complete'],
    ]);
    const returnUrl = new URL(messages[1]?.data.returnUrl ?? '');
    assert.equal(returnUrl.searchParams.get('event'), 'signing_complete');
    assert.equal(returnUrl.searchParams.get('state'), '123');
    // The frame then goes on to the returnUrl, as an unframed session does.
    await pollUntil(() => (new URL(frame.url()).port === String(appPort) ? true : undefined), { timeoutMs: 10_000, intervalMs: 50, what: 'the frame at the returnUrl' });
    const status = (await (await h.api('GET', `/envelopes/${envelopeId}?include=recipients`)).json()) as { recipients: { signers: { status: string }[] } };
    assert.equal(status.recipients.signers[0]?.status, 'completed');
  });

  await t.test('a view without frameAncestors, or framed by an origin it does not list, shows nothing in the frame', async (st) => {
    for (const ancestors of [undefined, [otherOrigin]]) {
      const envelopeId = await embeddedEnvelope('fv2@example.com', 'Nia Noframe', '2002');
      const res = await h.api('POST', `/envelopes/${envelopeId}/views/recipient`, {
        returnUrl: `${appOrigin}/ds-return`, clientUserId: '2002', email: 'fv2@example.com', userName: 'Nia Noframe', ...(ancestors ? { frameAncestors: ancestors } : {}),
      });
      assert.equal(res.status, 201);
      const { frame } = await hostPage(st, ((await res.json()) as { url: string }).url, false);
      // Chromium replaces a refused frame with its error page; the ceremony never renders in it.
      await pollUntil(() => (frame.url().startsWith('chrome-error:') ? true : undefined), { timeoutMs: 10_000, intervalMs: 50, what: `the frame refused (${String(ancestors)})` });
      assert.equal(await frame.getByRole('button', { name: 'Finish' }).count(), 0);
    }
  });

  await t.test('headers: the framed session names its origins and drops X-Frame-Options; its cookie is SameSite=None, Secure, Partitioned; a mailed link stays unframeable', async () => {
    const envelopeId = await embeddedEnvelope('fv3@example.com', 'Hal Headers', '2003');
    const res = await h.api('POST', `/envelopes/${envelopeId}/views/recipient`, {
      returnUrl: `${appOrigin}/ds-return`, clientUserId: '2003', recipientId: '1', frameAncestors: [appOrigin, `${otherOrigin}/`], messageOrigins: [appOrigin],
    });
    const redeem = await fetch(((await res.json()) as { url: string }).url, { redirect: 'manual' });
    assert.equal(redeem.status, 303);
    const cookie = redeem.headers.getSetCookie().find((c) => c.startsWith('signet_signing='));
    assert.ok(cookie);
    assert.match(cookie, /; SameSite=None/i);
    assert.match(cookie, /; Secure/i);
    assert.match(cookie, /; Partitioned/i);
    const page = await fetch(`${h.origin}/signing/session`, { headers: { cookie: cookie.split(';')[0] ?? '' } });
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', new RegExp(`frame-ancestors ${appOrigin} ${otherOrigin}$`));
    assert.equal(page.headers.get('x-frame-options'), null);
    // The same browser's ordinary pages (a mailed link, the console) keep frame-ancestors 'none'.
    const plain = await fetch(`${h.origin}/signing/session`);
    assert.match(plain.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.equal(plain.headers.get('x-frame-options'), 'DENY');
  });

  await t.test('bad frame origins are refused with 400 naming the field; nothing is created', async () => {
    const envelopeId = await embeddedEnvelope('fv4@example.com', 'Bo Bad', '2004');
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ frameAncestors: ['*'] }, /frameAncestors.*wildcard/],
      [{ frameAncestors: ['https://*.example.com'] }, /wildcard/],
      // A value that would add a directive to the CSP header if it were written as given.
      [{ frameAncestors: ["https://a.example.com;script-src 'unsafe-inline'"] }, /frameAncestors/],
      [{ frameAncestors: ['https://a.example.com;report-uri'] }, /not a DNS name/],
      [{ frameAncestors: ['http://app.example.com'] }, /not https/],
      [{ frameAncestors: ['https://app.example.com/path'] }, /more than scheme/],
      [{ frameAncestors: ['https://user@app.example.com'] }, /more than scheme/],
      [{ frameAncestors: 'https://app.example.com' }, /list of origins/],
      [{ frameAncestors: Array.from({ length: 11 }, (_, i) => `https://a${i}.example.com`) }, /at most 10/],
      [{ messageOrigins: [appOrigin] }, /needs 'frameAncestors'/],
      [{ frameAncestors: [appOrigin], messageOrigins: [otherOrigin] }, /not in 'frameAncestors'/],
      // Names match case-insensitively, as DocuSign's do.
      [{ FrameAncestors: ['*'] }, /wildcard/],
    ];
    for (const [fields, message] of cases) {
      const res = await h.api('POST', `/envelopes/${envelopeId}/views/recipient`, { returnUrl: `${appOrigin}/r`, clientUserId: '2004', recipientId: '1', ...fields });
      const body = (await res.json()) as { errorCode: string; message: string };
      assert.equal(res.status, 400, JSON.stringify(fields));
      assert.equal(body.errorCode, 'INVALID_REQUEST_PARAMETER');
      assert.match(body.message, message, JSON.stringify(fields));
    }
  });
});

async function embeddedEnvelope(email: string, name: string, clientUserId: string): Promise<string> {
  const res = await h.api('POST', '/envelopes', {
    emailSubject: 'Please sign in the frame',
    documents: [{ documentBase64: b64(await samplePdf(1)), documentId: '1', fileExtension: 'pdf', name: 'Agreement' }],
    recipients: { signers: [{ email, name, recipientId: '1', routingOrder: '1', clientUserId, tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '500' }] } }] },
    status: 'sent',
  });
  assert.equal(res.status, 201, await res.clone().text());
  return ((await res.json()) as { envelopeId: string }).envelopeId;
}

/** The integrator's page (on appOrigin) framing `src`; with `ready`, waits for the ceremony in the frame. */
async function hostPage(t: { after(fn: () => Promise<void>): void }, src: string, ready = true): Promise<{ page: Page; frame: Frame }> {
  const context = await browser.newContext();
  t.after(() => context.close());
  const page = await context.newPage();
  await page.goto(`${appOrigin}/host?src=${encodeURIComponent(src)}`);
  // By position, not name: a refused frame's error page has no name.
  const frame = page.mainFrame().childFrames()[0];
  assert.ok(frame);
  if (ready) await frame.getByRole('button', { name: 'Finish' }).waitFor({ timeout: 15_000 });
  return { page, frame };
}
