import {
  PDFArray, PDFDict, PDFHexString, PDFName, PDFRef, PDFStream, PDFString,
  drawObject, popGraphicsState, pushGraphicsState, translate,
  type PDFDocument, type PDFObject, type PDFPage,
} from 'pdf-lib';
import { loadFormPdf } from './load-form-pdf.ts';

const WIDGET = PDFName.of('Widget');

/**
 * The indirect objects of a form: fields and their kids (widgets included), their appearance
 * streams, the XFA. Only those keys are followed, so nothing a page also uses (fonts in /DR or
 * an appearance's /Resources, pages named by /P or by an action) is ever reached.
 */
function collectFormRefs(pdf: PDFDocument, value: PDFObject | undefined, keys: readonly string[], seen: Set<string>, refs: PDFRef[]): void {
  if (value === undefined) return;
  if (value instanceof PDFRef) {
    if (seen.has(value.toString())) return;
    seen.add(value.toString());
    refs.push(value);
    const target = pdf.context.lookup(value);
    // An appearance stream ends the walk; a state dictionary (/N << /On 5 0 R /Off 6 0 R >>) is followed through.
    if (!(target instanceof PDFStream)) collectFormRefs(pdf, target, keys, seen, refs);
    return;
  }
  if (value instanceof PDFArray) {
    for (const item of value.asArray()) collectFormRefs(pdf, item, keys, seen, refs);
    return;
  }
  if (!(value instanceof PDFDict)) return;
  for (const [name, item] of value.entries()) {
    const key = name.decodeText();
    if (key === 'AP') collectFormRefs(pdf, item, ['N', 'D', 'R'], seen, refs);
    else if (key === 'N' || key === 'D' || key === 'R') { if (keys.includes(key)) collectFormRefs(pdf, item, ['*'], seen, refs); }
    else if (keys.includes('*') || keys.includes(key)) collectFormRefs(pdf, item, keys.includes('*') ? [] : FIELD_KEYS, seen, refs);
  }
}

const FIELD_KEYS = ['Fields', 'Kids', 'XFA'];

/** The normal appearance a widget shows now (its /AP /N stream, or the one of its /AS state). */
function shownAppearance(pdf: PDFDocument, widget: PDFDict): PDFRef | undefined {
  const ap = pdf.context.lookupMaybe(widget.get(PDFName.of('AP')), PDFDict);
  const normal = ap?.get(PDFName.of('N'));
  if (normal instanceof PDFRef && pdf.context.lookup(normal) instanceof PDFStream) return normal;
  const states = pdf.context.lookupMaybe(normal, PDFDict);
  const state = widget.get(PDFName.of('AS'));
  const chosen = states && state instanceof PDFName ? states.get(state) : undefined;
  return chosen instanceof PDFRef ? chosen : undefined;
}

/** The fully qualified name of the field a widget belongs to (its /T and its parents', joined by dots). */
function fieldName(pdf: PDFDocument, widget: PDFDict): string {
  const parts: string[] = [];
  let node: PDFDict | undefined = widget;
  for (let depth = 0; node && depth < 32; depth++) {
    const t = node.lookup(PDFName.of('T'));
    if (t instanceof PDFString || t instanceof PDFHexString) parts.unshift(t.decodeText());
    node = pdf.context.lookupMaybe(node.get(PDFName.of('Parent')), PDFDict);
  }
  return parts.join('.');
}

/** Draws an appearance stream where its widget lies: the field becomes page content. */
function drawAppearance(page: PDFPage, widget: PDFDict, appearance: PDFRef): void {
  const rect = widget.lookup(PDFName.of('Rect'), PDFArray).asRectangle();
  const key = page.node.newXObject('FlatWidget', appearance);
  page.pushOperators(pushGraphicsState(), translate(rect.x, rect.y), drawObject(key), popGraphicsState());
}

/**
 * The PDF without its form: every widget annotation leaves its page, the AcroForm (and any XFA)
 * leaves the catalog, and the field objects themselves are deleted, so no viewer can edit a
 * value and no stale value stays in the file. For DocuSign's transformPdfFields, whose tabs now
 * hold the values (drawn by drawTabValues at completion). Fields named in `flatten` keep their
 * current look as page content (DocuSign leaves fields it does not transform on the page).
 */
export async function removeFormFields(pdfBytes: Uint8Array, options: { flatten?: readonly string[] } = {}): Promise<Uint8Array> {
  const pdf = await loadFormPdf(pdfBytes);
  const flatten = new Set(options.flatten ?? []);
  const seen = new Set<string>();
  const doomed: PDFRef[] = [];
  // An appearance a flattened field still draws must survive the deletion below.
  const kept = new Set<string>();
  for (const page of pdf.getPages()) {
    const annots = page.node.Annots();
    if (!annots) continue;
    const remaining: PDFObject[] = [];
    for (const item of annots.asArray()) {
      const annot = pdf.context.lookupMaybe(item, PDFDict);
      if (annot?.get(PDFName.of('Subtype')) !== WIDGET) {
        remaining.push(item);
        continue;
      }
      if (flatten.has(fieldName(pdf, annot))) {
        const appearance = shownAppearance(pdf, annot);
        if (appearance) {
          drawAppearance(page, annot, appearance);
          kept.add(appearance.toString());
        }
      }
      if (item instanceof PDFRef && !seen.has(item.toString())) {
        seen.add(item.toString());
        doomed.push(item);
      }
    }
    if (remaining.length === annots.size()) continue;
    if (remaining.length === 0) page.node.delete(PDFName.of('Annots'));
    else page.node.set(PDFName.of('Annots'), pdf.context.obj(remaining));
  }
  const acroFormEntry = pdf.catalog.get(PDFName.of('AcroForm'));
  collectFormRefs(pdf, acroFormEntry, FIELD_KEYS, seen, doomed);
  // Widgets found on the pages but missing from the field tree still take their appearances along.
  for (const ref of [...doomed]) collectFormRefs(pdf, pdf.context.lookup(ref), FIELD_KEYS, seen, doomed);
  pdf.catalog.delete(PDFName.of('AcroForm'));
  for (const ref of doomed) if (!kept.has(ref.toString())) pdf.context.delete(ref);
  return pdf.save({ updateFieldAppearances: false });
}
