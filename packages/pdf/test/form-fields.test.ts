import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFDict, PDFDocument, PDFName, PDFString } from 'pdf-lib';
import { PdfError, PdfThreads, readFormFields, removeFormFields } from '../src/index.ts';
import { makePdf } from './documents.fixture.ts';

/**
 * A Letter PDF with one field of each kind; widget rectangles in PDF space (bottom-left origin),
 * without borders (pdf-lib widens a widget's /Rect by half its border).
 */
async function makeForm(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page1 = pdf.addPage([612, 792]);
  const page2 = pdf.addPage([612, 792]);
  const form = pdf.getForm();
  const name = form.createTextField('buyer.name');
  name.setText('Ada');
  name.setMaxLength(40);
  name.enableRequired();
  name.addToPage(page1, { x: 72, y: 700, width: 200, height: 20, borderWidth: 0 });
  const terms = form.createCheckBox('terms');
  terms.check();
  terms.addToPage(page1, { x: 72, y: 650, width: 12, height: 12, borderWidth: 0 });
  const plan = form.createRadioGroup('plan');
  plan.addOptionToPage('basic', page1, { x: 72, y: 600, width: 12, height: 12, borderWidth: 0 });
  plan.addOptionToPage('pro', page2, { x: 300, y: 100, width: 12, height: 12, borderWidth: 0 });
  plan.select('pro');
  const colour = form.createDropdown('colour');
  colour.addOptions(['red', 'blue']);
  colour.select('blue');
  colour.addToPage(page2, { x: 72, y: 500, width: 100, height: 18, borderWidth: 0 });
  const button = form.createButton('print');
  button.addToPage('Print', page2, { x: 400, y: 500, width: 60, height: 20, borderWidth: 0 });
  // pdf-lib cannot create signature fields: one by hand, a widget with /FT /Sig.
  const sig = pdf.context.obj({ Type: 'Annot', Subtype: 'Widget', FT: 'Sig', T: PDFString.of('buyer.signature'), Rect: [72, 100, 252, 140], F: 4, P: page2.ref });
  const sigRef = pdf.context.register(sig);
  page2.node.addAnnot(sigRef);
  form.acroForm.addField(sigRef);
  return pdf.save();
}

test('every field of an uploaded form, with its widgets in tab space (points from the top-left)', async () => {
  const fields = await readFormFields(await makeForm());
  assert.deepEqual(fields, [
    { kind: 'text', name: 'buyer.name', value: 'Ada', maxLength: 40, multiline: false, required: true, readOnly: false, widgets: [{ pageNumber: 1, x: 72, y: 72, width: 200, height: 20 }] },
    { kind: 'checkbox', name: 'terms', checked: true, required: false, readOnly: false, widgets: [{ pageNumber: 1, x: 72, y: 130, width: 12, height: 12 }] },
    { kind: 'radio', name: 'plan', options: [
      { value: 'basic', widget: { pageNumber: 1, x: 72, y: 180, width: 12, height: 12 } },
      { value: 'pro', widget: { pageNumber: 2, x: 300, y: 680, width: 12, height: 12 } },
    ], selected: 'pro', required: false, readOnly: false },
    { kind: 'choice', name: 'colour', options: ['red', 'blue'], selected: ['blue'], multiSelect: false, required: false, readOnly: false, widgets: [{ pageNumber: 2, x: 72, y: 274, width: 100, height: 18 }] },
    { kind: 'signature', name: 'buyer.signature', required: false, widgets: [{ pageNumber: 2, x: 72, y: 652, width: 180, height: 40 }] },
  ]);
});

test('a PDF without a form has no fields; one that is not a PDF is refused; the threads read the same', async () => {
  assert.deepEqual(await readFormFields(await makePdf()), []);
  await assert.rejects(readFormFields(new TextEncoder().encode('not a pdf')), (e: unknown) => e instanceof PdfError && e.code === 'CORRUPT_DOCUMENT');
  const threads = new PdfThreads(1);
  try {
    const fields = await threads.readFormFields(await makeForm());
    assert.deepEqual(fields.map((f) => `${f.kind}:${f.name}`), ['text:buyer.name', 'checkbox:terms', 'radio:plan', 'choice:colour', 'signature:buyer.signature']);
  } finally {
    await threads.close();
  }
});

test('a widget that lacks /P is placed through its page\'s /Annots', async () => {
  const doc = await PDFDocument.load(await makeForm());
  const field = doc.getForm().getTextField('buyer.name');
  field.acroField.getWidgets()[0]!.dict.delete(PDFName.of('P'));
  const [text] = await readFormFields(await doc.save());
  assert.deepEqual(text?.kind === 'text' && text.widgets, [{ pageNumber: 1, x: 72, y: 72, width: 200, height: 20 }]);
});

test('removeFormFields: no widget, no AcroForm, no field object or value left; a flattened field keeps its look as page content', async () => {
  const pdfText = async (bytes: Uint8Array) => {
    const dir = await mkdtemp(join(tmpdir(), 'signet-form-'));
    try {
      await writeFile(join(dir, 'f.pdf'), bytes);
      return (await promisify(execFile)('pdftotext', [join(dir, 'f.pdf'), '-'])).stdout;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  const form = await makeForm();
  const source = await PDFDocument.load(form);
  source.getForm().getTextField('buyer.name').setText('Zebulon');
  const filled = await source.save();
  // pdftotext draws a form's appearances: the value shows while the form is there.
  assert.match(await pdfText(filled), /Zebulon/);

  const stripped = await removeFormFields(filled);
  assert.deepEqual(await readFormFields(stripped), []);
  const doc = await PDFDocument.load(stripped);
  assert.equal(doc.catalog.get(PDFName.of('AcroForm')), undefined);
  for (const page of doc.getPages()) assert.equal(page.node.Annots(), undefined, 'no widget left on a page');
  const leftovers = doc.context.enumerateIndirectObjects().filter(([, o]) => o instanceof PDFDict && (o.has(PDFName.of('FT')) || o.has(PDFName.of('V')) || o.get(PDFName.of('Subtype')) === PDFName.of('Widget')));
  // (pdf-lib's own createTextField leaves an unreferenced, valueless copy of a parent field, which stays.)
  assert.deepEqual(leftovers, [], 'no field or widget object (nor its value) stays in the file');
  assert.doesNotMatch(await pdfText(stripped), /Zebulon/);
  assert.equal(doc.getPageCount(), 2);

  const kept = await removeFormFields(filled, { flatten: ['buyer.name'] });
  assert.deepEqual(await readFormFields(kept), []);
  assert.match(await pdfText(kept), /Zebulon/, 'the flattened field is drawn as page content');

  const threads = new PdfThreads(1);
  try {
    assert.deepEqual(await readFormFields(await threads.removeFormFields(filled)), []);
  } finally {
    await threads.close();
  }
  assert.deepEqual(await removeFormFields(await makePdf()).then(readFormFields), [], 'a PDF without a form passes');
  await assert.rejects(removeFormFields(new TextEncoder().encode('not a pdf')), (e: unknown) => e instanceof PdfError && e.code === 'CORRUPT_DOCUMENT');
});
