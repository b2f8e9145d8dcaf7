import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { pollUntil } from '@signet/kit';
import { readFormFields } from '@signet/pdf';
import { signingPageFixture } from '../support/signing-page-fixture.ts';
import { documentOf, formOf, orderForm, pdfText, refusal, startFormEsign } from './pdf-form-fixture.ts';

// DocuSign's transformPdfFields through the real parts: a PDF form made here with pdf-lib (one
// field of each kind), sent through the docusign-esign SDK, its fields become the signer's tabs
// (values, required, read-only, maxLength and places kept), the stored PDF has no live form left,
// the signer fills them in Chromium (desktop and phone), getFormData gives the values back and
// pdftotext reads them in the completed PDF. Then the attacks: a huge form, a field naming a
// recipient of another envelope, hostile names.

const fx = signingPageFixture();
const start = (t: TestContext) => startFormEsign(t, fx.converter);

test('transformPdfFields: a PDF form through the SDK becomes the signer\'s tabs; signed in Chromium; form data and the completed PDF carry the values', async (t) => {
  const { h, sdk } = await start(t);
  const form = await orderForm();

  for (const [name, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 360, height: 740 }]] as const) {
    await t.test(name, async () => {
      const email = `grace-${name}@example.com`;
      const { envelopeId } = await sdk.createEnvelope(h.accountId, { envelopeDefinition: {
        emailSubject: 'Order form',
        documents: [documentOf(form, { assignTabsToRecipientId: '2' })],
        recipients: {
          signers: [{ email, name: 'Grace Hopper', recipientId: '2', routingOrder: '1', clientUserId: 'grace' }],
          carbonCopies: [{ email: 'cc@example.com', name: 'Copy', recipientId: '1', routingOrder: '2' }],
        },
        status: 'sent',
      } });

      // The fields as tabs of recipient 2, each where its widget was, with its value and rules.
      const tabs = await sdk.listTabs(h.accountId, envelopeId, '2');
      const text = (label: string) => tabs.textTabs?.find((x) => x.tabLabel === label);
      const buyer = text('buyer.name');
      assert.deepEqual([buyer?.value, buyer?.maxLength, buyer?.required, buyer?.locked, buyer?.pageNumber, buyer?.xPosition, buyer?.yPosition, buyer?.width], ['Ada', '40', 'true', 'false', '1', '72', '92', '200']);
      assert.equal(text('Reference')?.locked, 'true');
      assert.equal(text('Reference')?.required, 'false');
      assert.equal(text('Reference')?.value, 'REF-7');
      assert.equal(tabs.checkboxTabs?.[0]?.tabLabel, 'terms');
      assert.equal(tabs.checkboxTabs?.[0]?.required, 'true');
      assert.deepEqual(tabs.radioGroupTabs?.[0]?.radios?.map((r) => [r.value, r.selected, r.xPosition]), [['basic', 'true', '72'], ['pro', 'false', '140']]);
      assert.deepEqual(tabs.listTabs?.[0]?.listItems?.map((i) => i.value), ['red', 'blue']);
      assert.equal(tabs.dateSignedTabs?.[0]?.tabLabel, 'eSignDateSigned');
      assert.equal(tabs.signHereTabs?.[0]?.tabLabel, 'Buyer eSignSignHere');
      assert.equal(tabs.signHereTabs?.[0]?.yPosition, '352');
      assert.equal(Object.values(tabs).flat().some((x) => x.tabLabel === 'footer eSignIgnoreTransform'), false, 'an IgnoreTransform field is no tab');

      // The stored PDF has no live form a viewer could edit; the ignored field stays as page content.
      const stored = new Uint8Array(await sdk.getDocument(h.accountId, envelopeId, '1'));
      assert.deepEqual(await readFormFields(stored), []);
      assert.match(await pdfText(stored), /Printed by the sender/);

      const { url } = await sdk.createRecipientView(h.accountId, envelopeId, { recipientViewRequest: { returnUrl: fx.returnUrl, authenticationMethod: 'none', email, userName: 'Grace Hopper', clientUserId: 'grace' } });
      const context = await fx.browser.newContext({ viewport, locale: 'en-US' });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(url);
      await page.getByRole('button', { name: 'Finish' }).waitFor();
      assert.equal(await page.getByLabel('buyer.name').inputValue(), 'Ada', 'the form\'s value is prefilled');
      assert.equal(await page.getByLabel(/^Reference/).getAttribute('readonly'), '', 'a read-only field is locked');
      assert.equal(await page.getByRole('button', { name: 'Finish' }).isDisabled(), true, 'the required checkbox is not checked yet');
      await page.getByLabel('buyer.name').fill('Ada Lovelace');
      await page.getByLabel('terms').check();
      await page.getByRole('radio', { name: 'pro' }).check();
      await page.getByLabel(/^colour/).selectOption('blue');
      await page.getByRole('button', { name: 'Sign here' }).click();
      await page.getByRole('button', { name: 'Adopt and sign' }).click();
      await page.getByRole('button', { name: 'Finish' }).and(page.locator(':enabled')).waitFor();
      if (name === 'phone') assert.ok((await page.evaluate<number>('document.documentElement.scrollWidth')) <= 360, 'no horizontal scroll');
      await page.getByRole('button', { name: 'Finish' }).click();
      await page.waitForURL((u) => u.toString().startsWith(fx.returnUrl));
      assert.deepEqual(errors, []);
      await context.close();

      const data = await sdk.getFormData(h.accountId, envelopeId);
      const values = Object.fromEntries((data.recipientFormData?.[0]?.formData ?? []).map((e) => [e.name, e.value]));
      for (const [label, value] of Object.entries({ 'buyer.name': 'Ada Lovelace', Reference: 'REF-7', terms: 'true', plan: 'pro', colour: 'blue' })) assert.equal(values[label], value, label);
      assert.match(values.eSignDateSigned ?? '', /^\d{2}\/\d{2}\/\d{4}$/);

      await pollUntil(async () => (await sdk.listRecipients(h.accountId, envelopeId)).signers[0]?.status === 'completed' && (await h.api('GET', `/envelopes/${envelopeId}`).then((r) => r.json()) as { status: string }).status === 'completed', { timeoutMs: 30_000, intervalMs: 100, what: 'completion' });
      const completed = new Uint8Array(await sdk.getDocument(h.accountId, envelopeId, '1'));
      assert.deepEqual(await readFormFields(completed), [], 'the sealed PDF carries drawn values, not a form');
      const shown = (await pdfText(completed)).replace(/[ \t]+/g, ' ');
      for (const v of ['Ada Lovelace', 'REF-7', 'blue', values.eSignDateSigned ?? '?', 'Printed by the sender']) assert.ok(shown.includes(v), `the completed PDF shows ${v}`);
    });
  }
});

test('transformPdfFields attacks: a form of 2000+ fields, a field named for another envelope\'s recipient, hostile names: refused by name or kept inert; nothing half-written', async (t) => {
  const { h, sdk } = await start(t);
  const signer = { email: 'mallory@example.com', name: 'Mallory', recipientId: '1', routingOrder: '1', clientUserId: 'mallory' };
  const envelopeCount = async () => (await h.api('GET', '/envelopes?from_date=2000-01-01').then((r) => r.json()) as { resultSetSize?: string }).resultSetSize;
  const create = (document: Record<string, string>, signers: unknown[] = [signer], carbonCopies: unknown[] = []) =>
    sdk.createEnvelope(h.accountId, { envelopeDefinition: { emailSubject: 'Form', documents: [document], recipients: { signers, carbonCopies }, status: 'sent' } });
  const before = await envelopeCount();

  await t.test('a form with more fields than are read, or than a recipient holds, is refused whole', async () => {
    const huge = await refusal(create(documentOf(await formOf(Array.from({ length: 2001 }, (_, i) => `f${i}`)))));
    assert.equal(huge.status, 400);
    assert.equal(huge.errorCode, 'INVALID_REQUEST_BODY');
    assert.match(huge.message, /2001 form fields; at most 2000 are read/);
    const many = await refusal(create(documentOf(await formOf(Array.from({ length: 201 }, (_, i) => `f${i}`)))));
    assert.match(many.message, /recipientId 1 would hold 201 tabs .*at most 200/);
    assert.equal(await envelopeCount(), before, 'nothing stored');
  });

  await t.test('the fields go only to a recipient of this envelope: another envelope\'s recipient id names no one here', async () => {
    const first = await create(documentOf(await formOf(['a'])));
    const other = (await h.api('GET', `/envelopes/${first.envelopeId}/recipients`).then((r) => r.json()) as { signers: { recipientIdGuid: string }[] }).signers[0]?.recipientIdGuid ?? '';
    const tabsBefore = await sdk.listTabs(h.accountId, first.envelopeId, '1');
    const byGuid = await refusal(create(documentOf(await formOf(['b']), { assignTabsToRecipientId: other })));
    assert.equal(byGuid.errorCode, 'INVALID_REQUEST_BODY');
    assert.match(byGuid.message, /assignTabsToRecipientId ".*" names no recipient of the request/);
    // A field whose name holds another envelope's recipient id is only a label here.
    const named = await create(documentOf(await formOf([`eSignSignHere ${other}`, `recipient ${other}`])));
    const tabs = await sdk.listTabs(h.accountId, named.envelopeId, '1');
    assert.deepEqual(tabs.signHereTabs?.map((x) => x.tabLabel), [`eSignSignHere ${other}`]);
    assert.deepEqual(tabs.textTabs?.map((x) => x.tabLabel), [`recipient ${other}`]);
    assert.deepEqual(await sdk.listTabs(h.accountId, first.envelopeId, '1'), tabsBefore, 'the other envelope is untouched');
    const toCopy = await refusal(create(documentOf(await formOf(['c']), { assignTabsToRecipientId: '2' }), [signer], [{ email: 'cc@example.com', name: 'Copy', recipientId: '2', routingOrder: '2' }]));
    assert.match(toCopy.message, /assignTabsToRecipientId "2" is a carbonCopy, which holds no tabs/);
  });

  await t.test('hostile names: controls and overlong names are refused by name; markup is shown as text, never run', async () => {
    for (const [name, message] of [
      ['bell\u0007field', /the PDF form field "bell\\u0007field" cannot become a tab: its name holds control characters/],
      ['x'.repeat(600), /cannot become a tab: its name is 600 characters long; a tab label holds at most 500/],
    ] as const) {
      const refused = await refusal(create(documentOf(await formOf([name]))));
      assert.equal(refused.errorCode, 'INVALID_REQUEST_BODY');
      assert.match(refused.message, message);
    }
    const multi = await refusal(create(documentOf(await formOf([], (pdf) => {
      const list = pdf.getForm().createOptionList('pick');
      list.addOptions(['a', 'b']);
      list.enableMultiselect();
      list.addToPage(pdf.getPage(0), { x: 10, y: 10, width: 60, height: 40 });
    }))));
    assert.match(multi.message, /"pick" cannot become a tab: it allows several choices; a list tab holds one/);
    const twice = await refusal(create(documentOf(await formOf([], (pdf) => {
      const field = pdf.getForm().createTextField('twice');
      field.addToPage(pdf.getPage(0), { x: 10, y: 10, width: 60, height: 20 });
      field.addToPage(pdf.getPage(0), { x: 10, y: 100, width: 60, height: 20 });
    }))));
    assert.match(twice.message, /"twice" cannot become a tab: it is shown in 2 places; a tab has one/);
    const docx = await refusal(create({ ...documentOf(await formOf(['a'])), fileExtension: 'docx', name: 'a.docx' }));
    assert.match(docx.message, /transformPdfFields applies to PDF documents/);
    const stray = await refusal(create({ ...documentOf(await formOf(['a'])), transformPdfFields: 'false', assignTabsToRecipientId: '1' }));
    assert.match(stray.message, /assignTabsToRecipientId is read only with transformPdfFields "true"/);
    assert.equal(await envelopeCount(), String(Number(before ?? 0) + 2), 'only the two envelopes made above are stored');

    const markup = '<img src=x onerror="window.pwned=1">';
    const { envelopeId } = await create(documentOf(await formOf([markup])));
    const { url } = await sdk.createRecipientView(h.accountId, envelopeId, { recipientViewRequest: { returnUrl: fx.returnUrl, authenticationMethod: 'none', email: signer.email, userName: signer.name, clientUserId: signer.clientUserId } });
    const context = await fx.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(url);
    await page.getByRole('button', { name: 'Finish' }).waitFor();
    assert.equal(await page.getByLabel(markup).count(), 1, 'the name labels its control, as text');
    assert.equal(await page.locator('img[src=x]').count(), 0);
    assert.equal(await page.evaluate('window.pwned'), undefined);
    await context.close();
  });
});
