/**
 * DocuSign's Document.order (docusign-esign src/model/Document.js): where a document goes among
 * an envelope's or a template's documents. DocuSign's reference words the field as a list's sort
 * direction (asc, desc), but its answers carry each document's place ("1", "2", …) and documents
 * given an order are kept in that order, whatever order they are listed in: that is what is
 * honoured here (docs/esign-envelopes.md, "Document order").
 *
 * Sorted by order, lowest first; a document given none keeps the place it has (`placeOf`: by
 * default where it is listed, 1-based), so a list without any order stays as listed. On a tie,
 * a document whose order was given goes first, then the list's order. The domain numbers the
 * result 1, 2, … (EnvelopeDocument.order is the position).
 */
export function inDocumentOrder<T extends { readonly order?: number }>(documents: readonly T[], placeOf: (document: T, index: number) => number = (_d, i) => i + 1): T[] {
  return documents
    .map((document, index) => ({ document, index, key: document.order ?? placeOf(document, index), given: document.order !== undefined }))
    .sort((a, b) => a.key - b.key || Number(b.given) - Number(a.given) || a.index - b.index)
    .map((x) => x.document);
}
