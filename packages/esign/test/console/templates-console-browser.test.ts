import assert from 'node:assert/strict';
import { after, before, test, type TestContext } from 'node:test';
import { launchChromium } from '@signet/kit';
import { buildConverter, type Converter } from '@signet/pdf';
import { samplePdf, startSigningEsign } from '../signing/signing-harness.ts';

let converter: Converter;
before(async () => {
  converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
});
after(() => converter.close());

type WireTemplate = { templateId: string; name: string; recipients?: { signers: { roleName: string; tabs?: { signHereTabs?: { documentId: string; pageNumber: string; xPosition: string; yPosition: string }[] } }[] } };

test('console Templates page in headless Chromium: upload a document, add roles, place a signature by clicking the page, use the template id from the API', async (t: TestContext) => {
  const h = await startSigningEsign(t, { converter });
  const browser = await launchChromium();
  t.after(() => browser.close());
  const page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
  await page.goto(`${h.origin}/console/templates`);
  await page.waitForURL(/\/login/);
  await page.getByLabel('E-mail').fill(h.email);
  await page.getByLabel('Password').fill(h.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${h.origin}/console/templates`);

  // Upload: a two-page PDF becomes a template.
  await page.getByLabel('Name').fill('Console NDA <b>');
  await page.getByLabel('Document').setInputFiles({ name: 'NDA.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await samplePdf(2, 'Console NDA')) });
  await page.getByRole('button', { name: 'Upload' }).click();
  await page.waitForURL(/\/console\/templates\/[0-9a-f-]{36}$/);
  const templateId = (await page.locator('[data-field=template-id]').textContent()) ?? '';
  assert.equal(await page.locator('h1').textContent(), 'Console NDA <b>', 'the name is rendered escaped');

  // Roles: a signer (then chosen for placing) and a carbon copy.
  await page.getByLabel('Role name').fill('buyer');
  await page.getByRole('button', { name: 'Add role' }).click();
  await page.waitForURL(/\?role=1$/);
  await page.getByLabel('Role name').fill('observer');
  await page.getByLabel('Type').selectOption('carbonCopy');
  await page.getByRole('button', { name: 'Add role' }).click();
  await page.waitForURL(new RegExp(`/console/templates/${templateId}$`));

  // The page images are the rendered PDF pages; a click on page 2 places the buyer's signature there.
  const page2 = page.getByRole('button', { name: /NDA\.pdf, page 2: click to place a signature for buyer/ });
  await page2.waitFor();
  const box = await page2.boundingBox();
  assert.ok(box);
  assert.ok(Math.abs(box.width - (612 * 110) / 72) < 2, `the image is the page at 110 dpi (${box.width} px)`);
  await page2.click({ position: { x: 220, y: 330 } });
  await page.waitForURL(/\?role=1$/);
  assert.equal(await page.locator('tr[data-tab]').count(), 1);

  // The API sees the same template, the tab where the click was (pixels at 110 dpi → points).
  const res = await h.api('GET', `/templates/${templateId}?include=recipients,tabs`);
  const wire = (await res.json()) as WireTemplate;
  assert.equal(wire.name, 'Console NDA <b>');
  const tabs = wire.recipients?.signers.find((s) => s.roleName === 'buyer')?.tabs?.signHereTabs ?? [];
  assert.deepEqual(tabs.map((x) => [x.documentId, x.pageNumber]), [['1', '2']]);
  assert.ok(Math.abs(Number(tabs[0]?.xPosition) - (220 * 72) / 110) < 1.5, `x ${tabs[0]?.xPosition}`);
  assert.ok(Math.abs(Number(tabs[0]?.yPosition) - (330 * 72) / 110) < 1.5, `y ${tabs[0]?.yPosition}`);

  // The list shows the id to use from the SDK; an envelope made from it carries the tab.
  await page.goto(`${h.origin}/console/templates`);
  assert.equal(await page.locator('[data-field=template-id]').first().textContent(), templateId);
  const made = await h.api('POST', '/envelopes', { templateId, status: 'sent', templateRoles: [{ roleName: 'buyer', name: 'Bea Buyer', email: 'bea@example.com' }, { roleName: 'observer', name: 'Otto', email: 'otto@example.com' }] });
  assert.equal(made.status, 201, await made.clone().text());
  const envelopeId = ((await made.json()) as { envelopeId: string }).envelopeId;
  const recipients = (await (await h.api('GET', `/envelopes/${envelopeId}/recipients?include_tabs=true`)).json()) as { signers: { tabs: { signHereTabs: { pageNumber: string }[] } }[]; carbonCopies: unknown[] };
  assert.deepEqual(recipients.signers.map((s) => s.tabs.signHereTabs.map((x) => x.pageNumber)), [['2']]);
  assert.equal(recipients.carbonCopies.length, 1);

  // A file the converter refuses is reported on the page, and no template is made.
  await page.getByLabel('Name').fill('Broken');
  await page.getByLabel('Document').setInputFiles({ name: 'broken.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7 not really') });
  await page.getByRole('button', { name: 'Upload' }).click();
  await page.getByRole('alert').waitFor();
  assert.match((await page.getByRole('alert').textContent()) ?? '', /validation of the PDF file failed/);
  assert.equal(await page.locator('[data-field=template-id]').count(), 1);
});
