import {
  PDFCheckBox, PDFDropdown, PDFOptionList, PDFRadioGroup, PDFRef, PDFSignature, PDFTextField,
  type PDFField, type PDFPage, type PDFWidgetAnnotation,
} from 'pdf-lib';
import { PdfError } from '../pdf-error.ts';
import { loadFormPdf } from './load-form-pdf.ts';

/** Where one widget of a field is, in DocuSign tab space (points from the page's top-left, y down). */
export type FieldWidget = { pageNumber: number; x: number; y: number; width: number; height: number };

/**
 * A form field of an uploaded PDF, described neutrally for a caller that turns fields into tabs
 * (DocuSign's transformPdfFields): text → text, checkbox → checkbox, radio → radioGroup, choice
 * → list, signature → signHere. Push buttons and fields without a widget on a page are skipped.
 */
export type FormField =
  | { kind: 'text'; name: string; value: string; maxLength?: number; multiline: boolean; required: boolean; readOnly: boolean; widgets: FieldWidget[] }
  | { kind: 'checkbox'; name: string; checked: boolean; required: boolean; readOnly: boolean; widgets: FieldWidget[] }
  | { kind: 'radio'; name: string; options: { value: string; widget: FieldWidget }[]; selected?: string; required: boolean; readOnly: boolean }
  | { kind: 'choice'; name: string; options: string[]; selected: string[]; multiSelect: boolean; required: boolean; readOnly: boolean; widgets: FieldWidget[] }
  | { kind: 'signature'; name: string; required: boolean; widgets: FieldWidget[] };

// A form is the sender's document: this bounds what one upload can make us describe.
export const MAX_FORM_FIELDS = 2000;

function widgetPlace(widget: PDFWidgetAnnotation, pages: readonly PDFPage[], pageOfAnnot: Map<string, number>, ref: PDFRef | undefined): FieldWidget | undefined {
  const p = widget.P();
  let index = p ? pages.findIndex((page) => page.ref === p) : -1;
  if (index < 0 && ref) index = pageOfAnnot.get(ref.toString()) ?? -1;
  const page = pages[index];
  if (!page) return undefined;
  const r = widget.getRectangle();
  const crop = page.getCropBox();
  const round = (v: number) => Math.round(v * 100) / 100;
  return { pageNumber: index + 1, x: round(r.x - crop.x), y: round(crop.y + crop.height - (r.y + r.height)), width: round(r.width), height: round(r.height) };
}

/**
 * The AcroForm fields of a PDF with each widget's page and box. A PDF without a form has none;
 * one pdf-lib cannot read is CORRUPT_DOCUMENT, an encrypted one ENCRYPTED_DOCUMENT.
 */
export async function readFormFields(pdfBytes: Uint8Array): Promise<FormField[]> {
  const pdf = await loadFormPdf(pdfBytes);
  const pages = pdf.getPages();
  // Widgets that lack /P are found through the pages' /Annots.
  const pageOfAnnot = new Map<string, number>();
  pages.forEach((page, i) => {
    for (const ref of page.node.Annots()?.asArray() ?? []) if (ref instanceof PDFRef) pageOfAnnot.set(ref.toString(), i);
  });
  let fields: PDFField[];
  try {
    fields = pdf.getForm().getFields();
  } catch (err) {
    throw new PdfError('CORRUPT_DOCUMENT', 'Its form could not be read.', { cause: err });
  }
  if (fields.length > MAX_FORM_FIELDS) throw new PdfError('DOCUMENT_TOO_LARGE', `It has ${fields.length} form fields; at most ${MAX_FORM_FIELDS} are read.`);
  const out: FormField[] = [];
  for (const field of fields) {
    const widgetRefs = new Map<PDFWidgetAnnotation, PDFRef | undefined>();
    // A field with several widgets lists them in /Kids, in getWidgets' order; a lone widget is the field itself.
    const kids = field.acroField.Kids();
    const widgets = field.acroField.getWidgets();
    widgets.forEach((w, i) => {
      const kidRef = kids?.get(i);
      widgetRefs.set(w, kidRef instanceof PDFRef ? kidRef : field.ref);
    });
    const places = widgets.map((w) => widgetPlace(w, pages, pageOfAnnot, widgetRefs.get(w))).filter((p): p is FieldWidget => p !== undefined);
    const name = field.getName();
    const required = field.isRequired();
    const readOnly = field.isReadOnly();
    if (field instanceof PDFTextField) {
      const maxLength = field.getMaxLength();
      out.push({ kind: 'text', name, value: field.getText() ?? '', ...(maxLength !== undefined ? { maxLength } : {}), multiline: field.isMultiline(), required, readOnly, widgets: places });
    } else if (field instanceof PDFCheckBox) {
      out.push({ kind: 'checkbox', name, checked: field.isChecked(), required, readOnly, widgets: places });
    } else if (field instanceof PDFRadioGroup) {
      const values = field.getOptions();
      const options = widgets.flatMap((w, i) => {
        const place = widgetPlace(w, pages, pageOfAnnot, widgetRefs.get(w));
        const value = values[i];
        return place && value !== undefined ? [{ value, widget: place }] : [];
      });
      const selected = field.getSelected();
      out.push({ kind: 'radio', name, options, ...(selected !== undefined ? { selected } : {}), required, readOnly });
    } else if (field instanceof PDFDropdown || field instanceof PDFOptionList) {
      out.push({
        kind: 'choice', name, options: field.getOptions(), selected: field.getSelected(),
        multiSelect: field instanceof PDFDropdown ? field.isMultiselect() : field.isMultiselect(), required, readOnly, widgets: places,
      });
    } else if (field instanceof PDFSignature) {
      out.push({ kind: 'signature', name, required, widgets: places });
    }
  }
  return out;
}
