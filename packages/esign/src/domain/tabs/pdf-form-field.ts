/** Where one widget of a PDF form field lies, in tab space (points from the page's top-left). */
export type PdfFieldWidget = { readonly pageNumber: number; readonly x: number; readonly y: number; readonly width: number; readonly height: number };

/**
 * A form field of an uploaded PDF as the pdf package reads it (@signet/pdf readFormFields), for
 * transformPdfFields. Declared here so the domain does not depend on the pdf package.
 */
export type PdfFormField =
  | { readonly kind: 'text'; readonly name: string; readonly value: string; readonly maxLength?: number; readonly multiline: boolean; readonly required: boolean; readonly readOnly: boolean; readonly widgets: readonly PdfFieldWidget[] }
  | { readonly kind: 'checkbox'; readonly name: string; readonly checked: boolean; readonly required: boolean; readonly readOnly: boolean; readonly widgets: readonly PdfFieldWidget[] }
  | { readonly kind: 'radio'; readonly name: string; readonly options: readonly { readonly value: string; readonly widget: PdfFieldWidget }[]; readonly selected?: string; readonly required: boolean; readonly readOnly: boolean }
  | { readonly kind: 'choice'; readonly name: string; readonly options: readonly string[]; readonly selected: readonly string[]; readonly multiSelect: boolean; readonly required: boolean; readonly readOnly: boolean; readonly widgets: readonly PdfFieldWidget[] }
  | { readonly kind: 'signature'; readonly name: string; readonly required: boolean; readonly widgets: readonly PdfFieldWidget[] };
