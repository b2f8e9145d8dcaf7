import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { pollUntil } from '@signet/kit';
import { signingPageFixture } from '../support/signing-page-fixture.ts';
import { documentOf, formOf, orderForm, pdfText, refusal, startFormEsign, type WireTab } from './pdf-form-fixture.ts';
import { b64, samplePdf } from '../support/sample-pdf.ts';

// DocuSign's transformPdfFields with tabs of the fields' labels (DocuSign "Composite Templates":
// PDF form generated tabs go to the recipient whose tab label names them): a recipient's tab with
// no place of its own takes the field of its tabLabel (its place, size and value; the sender's
// value wins), and the fields no tab takes go to assignTabsToRecipientId. Through the SDK, two
// signers in Chromium, getFormData and pdftotext; then composite templates (an inline template
// carrying the tabs, a server template made from the form) and every refusal.

const fx = signingPageFixture();
const BUYER = { email: 'alan@example.com', name: 'Alan Turing', clientUserId: 'alan' };
const SELLER = { email: 'grace@example.com', name: 'Grace Hopper', clientUserId: 'grace' };
const tabOf = (tabs: Record<string, WireTab[]>, label: string) => Object.values(tabs).flat().find((x) => x.tabLabel === label);
const labels = (tabs: Record<string, WireTab[]>) => Object.values(tabs).flat().map((x) => x.tabLabel ?? x.groupName).sort();

test('transformPdfFields: a tab labelled as a PDF field (a radio group by groupName) takes it; the other fields go to assignTabsToRecipientId', async (t) => {
  const { h, sdk, templates } = await startFormEsign(t, fx.converter);
  const form = await orderForm();
  const claiming = { textTabs: [{ tabLabel: 'buyer.name' }], checkboxTabs: [{ tabLabel: 'terms', required: 'true' }] };
  const signHere = { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '330', yPosition: '300' }] };
  const envelopeCount = async () => (await h.api('GET', '/envelopes?from_date=2000-01-01').then((r) => r.json()) as { resultSetSize?: string }).resultSetSize;

  /** Opens the signer's page, does what `fill` says, adopts and signs, finishes. */
  const sign = async (envelopeId: string, who: typeof BUYER, fill: (page: Page) => Promise<void>) => {
    const { url } = await sdk.createRecipientView(h.accountId, envelopeId, { recipientViewRequest: { returnUrl: fx.returnUrl, authenticationMethod: 'none', email: who.email, userName: who.name, clientUserId: who.clientUserId } });
    const context = await fx.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(url);
      await page.getByRole('button', { name: 'Finish' }).waitFor();
      await fill(page);
      await page.getByRole('button', { name: 'Sign here' }).click();
      await page.getByRole('button', { name: 'Adopt and sign' }).click();
      await page.getByRole('button', { name: 'Finish' }).and(page.locator(':enabled')).click();
      await page.waitForURL((u) => u.toString().startsWith(fx.returnUrl));
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  };

  await t.test('recipient 2\'s text and checkbox tabs take their fields; recipient 1 gets the rest; both sign; form data and the completed PDF carry the values', async () => {
    const { envelopeId } = await sdk.createEnvelope(h.accountId, { envelopeDefinition: {
      emailSubject: 'Order form',
      documents: [documentOf(form)],
      recipients: { signers: [{ ...SELLER, recipientId: '1', routingOrder: '1' }, { ...BUYER, recipientId: '2', routingOrder: '1', tabs: { ...claiming, ...signHere } }] },
      status: 'sent',
    } });
    const buyerTabs = await sdk.listTabs(h.accountId, envelopeId, '2');
    const name = tabOf(buyerTabs, 'buyer.name');
    assert.deepEqual([name?.value, name?.pageNumber, name?.xPosition, name?.yPosition, name?.width], ['Ada', '1', '72', '92', '200'], 'at the field\'s widget, its size, its value');
    const terms = buyerTabs.checkboxTabs?.[0];
    assert.deepEqual([terms?.tabLabel, terms?.selected, terms?.required, terms?.xPosition, terms?.yPosition, terms?.width], ['terms', 'false', 'true', '72', '138', '14']);
    assert.deepEqual(labels(buyerTabs), ['buyer.name', 'terms', undefined].sort());
    const sellerTabs = await sdk.listTabs(h.accountId, envelopeId, '1');
    assert.deepEqual(labels(sellerTabs), ['Buyer eSignSignHere', 'Reference', 'colour', 'eSignDateSigned', 'plan'].sort(), 'a taken field becomes no tab of assignTabsToRecipientId');

    await sign(envelopeId, BUYER, async (page) => {
      assert.equal(await page.getByLabel('buyer.name').inputValue(), 'Ada');
      assert.equal(await page.getByRole('button', { name: 'Finish' }).isDisabled(), true, 'the tab\'s own required checkbox is not checked yet');
      await page.getByLabel('buyer.name').fill('Ada Lovelace');
      await page.getByLabel('terms').check();
    });
    await sign(envelopeId, SELLER, async (page) => {
      assert.equal(await page.getByLabel('buyer.name').count(), 0, 'the buyer\'s tab is not on the seller\'s page as a control');
      await page.getByRole('radio', { name: 'pro' }).check();
      await page.getByLabel(/^colour/).selectOption('blue');
    });

    const data = await sdk.getFormData(h.accountId, envelopeId);
    const valuesOf = (recipientId: string) => Object.fromEntries(((data.recipientFormData as { recipientId: string; formData?: { name: string; value: string }[] }[] | undefined)?.find((r) => r.recipientId === recipientId)?.formData ?? []).map((e) => [e.name, e.value]));
    assert.deepEqual([valuesOf('2')['buyer.name'], valuesOf('2').terms], ['Ada Lovelace', 'true']);
    assert.deepEqual([valuesOf('1').plan, valuesOf('1').colour, valuesOf('1').Reference, valuesOf('1')['buyer.name']], ['pro', 'blue', 'REF-7', undefined]);
    await pollUntil(async () => (await h.api('GET', `/envelopes/${envelopeId}`).then((r) => r.json()) as { status: string }).status === 'completed', { timeoutMs: 30_000, intervalMs: 100, what: 'completion' });
    const shown = (await pdfText(new Uint8Array(await sdk.getDocument(h.accountId, envelopeId, '1')))).replace(/[ \t]+/g, ' ');
    for (const v of ['Ada Lovelace', 'REF-7', 'blue']) assert.ok(shown.includes(v), `the completed PDF shows ${v}`);
  });

  await t.test('composite templates: an inline template\'s tabs take the fields (the sender\'s value wins); a template made from the form keeps its taken tabs; a server template\'s own tabs keep their places', async () => {
    const inline = await sdk.createEnvelope(h.accountId, { envelopeDefinition: {
      emailSubject: 'Order form',
      compositeTemplates: [{
        compositeTemplateId: '1',
        document: documentOf(form),
        inlineTemplates: [{ sequence: '1', recipients: { signers: [
          { ...SELLER, recipientId: '1', routingOrder: '1', tabs: { radioGroupTabs: [{ groupName: 'plan', radios: [{ value: 'basic' }, { value: 'pro' }] }] } },
          { ...BUYER, recipientId: '2', routingOrder: '2', tabs: { textTabs: [{ tabLabel: 'buyer.name', value: 'Charles' }], checkboxTabs: [{ tabLabel: 'terms', selected: 'true' }], ...signHere } },
        ] } }],
      }],
      status: 'created',
    } });
    const buyerTabs = await sdk.listTabs(h.accountId, inline.envelopeId, '2');
    assert.deepEqual([tabOf(buyerTabs, 'buyer.name')?.value, tabOf(buyerTabs, 'buyer.name')?.yPosition, tabOf(buyerTabs, 'terms')?.selected], ['Charles', '92', 'true']);
    const sellerTabs = await sdk.listTabs(h.accountId, inline.envelopeId, '1');
    assert.deepEqual(labels(sellerTabs), ['Buyer eSignSignHere', 'Reference', 'colour', 'eSignDateSigned', 'plan'].sort(), 'the fields no tab took, and the group that took plan');
    assert.deepEqual(sellerTabs.radioGroupTabs?.map((g) => [g.groupName, g.radios?.map((r) => [r.value, r.selected, r.xPosition, r.yPosition])]), [['plan', [['basic', 'true', '72', '178'], ['pro', 'false', '140', '178']]]],
      'a radio group whose radios have no place takes the radio field of its groupName, each radio at its button, the field\'s choice kept');

    // A template made from the form: its Buyer role's tab takes the field when the template is made.
    const { templateId } = await templates.createTemplate(h.accountId, { envelopeTemplate: {
      name: 'Order form', emailSubject: 'Order form', documents: [documentOf(form)],
      recipients: { signers: [{ recipientId: '1', roleName: 'Seller', routingOrder: '1' }, { recipientId: '2', roleName: 'Buyer', routingOrder: '1', tabs: claiming }] },
    } });
    const fromTemplate = await sdk.createEnvelope(h.accountId, { envelopeDefinition: {
      status: 'created',
      compositeTemplates: [{ serverTemplates: [{ sequence: '1', templateId }], inlineTemplates: [{ sequence: '2', recipients: { signers: [{ ...SELLER, roleName: 'Seller', recipientId: '1' }, { ...BUYER, roleName: 'Buyer', recipientId: '2' }] } }] }],
    } });
    const roleTabs = await sdk.listTabs(h.accountId, fromTemplate.envelopeId, '2');
    assert.deepEqual(labels(roleTabs), ['buyer.name', 'terms']);
    assert.deepEqual([tabOf(roleTabs, 'buyer.name')?.value, tabOf(roleTabs, 'buyer.name')?.xPosition, tabOf(roleTabs, 'buyer.name')?.yPosition], ['Ada', '72', '92']);
    assert.equal(tabOf(await sdk.listTabs(h.accountId, fromTemplate.envelopeId, '1'), 'terms'), undefined);

    // A server template of another document laid over the form: its tabs keep their places, the inline tabs take the fields.
    const plain = await templates.createTemplate(h.accountId, { envelopeTemplate: {
      name: 'Plain', emailSubject: 'Plain', documents: [{ documentBase64: b64(await samplePdf(1)), documentId: '1', fileExtension: 'pdf', name: 'Plain' }],
      recipients: { signers: [{ recipientId: '1', roleName: 'Seller', routingOrder: '1' }, { recipientId: '2', roleName: 'Buyer', routingOrder: '1', tabs: signHere }] },
    } });
    const overlaid = await sdk.createEnvelope(h.accountId, { envelopeDefinition: {
      status: 'created',
      compositeTemplates: [{
        document: documentOf(form),
        serverTemplates: [{ sequence: '1', templateId: plain.templateId }],
        inlineTemplates: [{ sequence: '2', recipients: { signers: [{ ...SELLER, roleName: 'Seller', recipientId: '1' }, { ...BUYER, roleName: 'Buyer', recipientId: '2', tabs: claiming }] } }],
      }],
    } });
    const buyer = await sdk.listTabs(h.accountId, overlaid.envelopeId, '2');
    assert.deepEqual(labels(buyer), ['buyer.name', 'terms', undefined].sort());
    assert.deepEqual([buyer.signHereTabs?.[0]?.xPosition, buyer.signHereTabs?.[0]?.yPosition, tabOf(buyer, 'buyer.name')?.yPosition], ['330', '300', '92'], 'the template\'s tab where the template put it; the inline tab at its field');
    assert.deepEqual(labels(await sdk.listTabs(h.accountId, overlaid.envelopeId, '1')), ['Buyer eSignSignHere', 'Reference', 'colour', 'eSignDateSigned', 'plan'].sort());
  });

  await t.test('refused by name, 4xx, nothing stored', async () => {
    const before = await envelopeCount();
    const create = (signers: unknown[], carbonCopies: unknown[] = [], document = documentOf(form)) =>
      sdk.createEnvelope(h.accountId, { envelopeDefinition: { emailSubject: 'Form', documents: [document], recipients: { signers, carbonCopies }, status: 'sent' } });
    const seller = { ...SELLER, recipientId: '1', routingOrder: '1' };
    const cases: [string, () => Promise<unknown>, string, RegExp][] = [
      ['two recipients name one field', () => create([{ ...seller, tabs: { textTabs: [{ tabLabel: 'buyer.name' }] } }, { ...BUYER, recipientId: '2', tabs: claiming }]),
        'INVALID_REQUEST_BODY', /documentId 1: the PDF form field "buyer\.name" is named by the text tab "buyer\.name" of recipientId 1 and by the text tab "buyer\.name" of recipientId 2; a field goes to one tab/],
      ['a checkbox tab labelled as a text field', () => create([seller, { ...BUYER, recipientId: '2', tabs: { checkboxTabs: [{ tabLabel: 'buyer.name' }] } }]),
        'INVALID_REQUEST_BODY', /the PDF form field "buyer\.name", taken by the checkbox tab "buyer\.name" of recipientId 2, cannot be taken: it is a text field, which any tab but a checkbox, radio group or list can take/],
      ['a tab on a carbon copy', () => create([seller], [{ email: 'cc@example.com', name: 'Copy', recipientId: '2', routingOrder: '2', tabs: claiming }]),
        'INVALID_REQUEST_BODY', /carbonCopies\[0\]\.tabs\.textTabs is not allowed: a carbon copy receives a copy and fills in no tab/],
      ['a label no field has', () => create([seller, { ...BUYER, recipientId: '2', tabs: { textTabs: [{ tabLabel: 'buyer.nam' }] } }]),
        'INVALID_REQUEST_BODY', /The text tab "buyer\.nam" of recipientId 2 needs an anchorString, or a documentId with pageNumber, xPosition and yPosition: no PDF form field of a document sent with transformPdfFields is named by its tabLabel/],
      ['no form to take a field from', () => create([seller, { ...BUYER, recipientId: '2', tabs: claiming }], [], { ...documentOf(form), transformPdfFields: 'false' }),
        'INVALID_REQUEST_BODY', /recipientId 2: the text tab "buyer\.name" needs an anchorString, or a documentId with pageNumber, xPosition and yPosition \(or a PDF form field of its tabLabel, with transformPdfFields\)/],
      ['a field shown twice', async () => create([seller, { ...BUYER, recipientId: '2', tabs: { textTabs: [{ tabLabel: 'twice' }] } }], [], documentOf(await formOf([], (pdf) => {
        const field = pdf.getForm().createTextField('twice');
        field.addToPage(pdf.getPage(0), { x: 10, y: 10, width: 60, height: 20 });
        field.addToPage(pdf.getPage(0), { x: 10, y: 100, width: 60, height: 20 });
      }))), 'INVALID_REQUEST_BODY', /the PDF form field "twice", taken by the text tab "twice" of recipientId 2, cannot be taken: it is shown in 2 places; a tab has one/],
      ['a field value the tab refuses', () => create([seller, { ...BUYER, recipientId: '2', tabs: { textTabs: [{ tabLabel: 'buyer.name', maxLength: '2' }] } }]),
        'INVALID_TAB_VALUE', /the PDF form field "buyer\.name", taken by the text tab "buyer\.name" of recipientId 2, would hold "Ada"/],
    ];
    for (const [what, call, errorCode, message] of cases) {
      const refused = await refusal(call());
      assert.deepEqual([refused.status, refused.errorCode], [400, errorCode], what);
      assert.match(refused.message, message, what);
    }
    assert.equal(await envelopeCount(), before, 'nothing stored');
  });
});
