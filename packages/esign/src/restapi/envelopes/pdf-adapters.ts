import { newSearchBudget, PdfError, searchAnchors, toAnchorSearch, type Converter, type DocumentText, type SearchBudget } from '@signet/pdf';
import type { AnchorFinder, DocumentConverter } from '../../domain/envelope/ports.ts';
import { EsignError } from '../../errors.ts';
import { pdfFieldNameKind } from '../../domain/tabs/pdf-field-name-rule.ts';

/** A PdfError about one document, in DocuSign's words (DocuSign "Error codes" reference). */
function toEsignError(err: unknown, document: { documentId: string; fileExtension: string }): unknown {
  if (!(err instanceof PdfError)) return err;
  const where = `documentId ${document.documentId} (${document.fileExtension}): ${err.message}`;
  switch (err.code) {
    case 'CORRUPT_DOCUMENT':
    case 'ENCRYPTED_DOCUMENT':
      return new EsignError(document.fileExtension === 'pdf' ? 'PDF_VALIDATION_FAILED' : 'FORMAT_CONVERSION_ERROR', where, { cause: err });
    case 'UNSUPPORTED_FORMAT':
    case 'CONVERSION_TIMEOUT':
      return new EsignError('FORMAT_CONVERSION_ERROR', where, { cause: err });
    case 'DOCUMENT_TOO_LARGE':
      return new EsignError('INVALID_REQUEST_BODY', where, { cause: err });
    case 'CONVERTER_CLOSED':
      return new EsignError('SERVICE_UNAVAILABLE', undefined, { cause: err });
    case 'CONVERTER_BUSY':
      return new EsignError('CONVERSION_QUEUE_LIMIT_EXCEEDED', where, { cause: err });
    default:
      return new EsignError('UNSPECIFIED_ERROR', undefined, { cause: err });
  }
}

/** What the envelope module uses of the pdf package's converter. */
export type EnvelopeConverter = Pick<Converter, 'convert' | 'extractText' | 'readFormFields' | 'removeFormFields'>;

/**
 * The domain's DocumentConverter and AnchorFinder over the pdf package. Each converted PDF's
 * text is extracted once, on the converter's pdf threads (off the event loop), and serves both
 * its page sizes and every anchor search of the envelope: parsing a 10-page PDF costs about
 * what the whole search costs (docs/benchmarks.md).
 */
export function buildPdfPorts(converter: EnvelopeConverter): { converter: DocumentConverter; anchors: AnchorFinder } {
  const texts = new WeakMap<Uint8Array, Promise<DocumentText>>();
  // The anchor searches of one envelope (one list of PDFs) share one budget of comparisons: a
  // sender's text and anchors, however many, cost the event loop a bounded time.
  const budgets = new WeakMap<readonly Uint8Array[], SearchBudget>();
  const textOf = (pdf: Uint8Array, tenant?: string): Promise<DocumentText> => {
    let text = texts.get(pdf);
    if (!text) {
      text = converter.extractText([pdf], { tenant }).then(([document]) => document ?? Promise.reject(new TypeError('extractText returned no document')));
      texts.set(pdf, text);
    }
    return text;
  };
  return {
    converter: {
      async convert(document, accountId) {
        const tenant = accountId;
        try {
          const converted = await converter.convert({ bytes: document.bytes, fileExtension: document.fileExtension, tenant });
          // transformPdfFields: the fields are read, then the form leaves the PDF (its values become tabs,
          // drawn at completion); fields named IgnoreTransform stay as page content (docs/esign-tabs.md).
          const fields = document.transformPdfFields ? await converter.readFormFields(converted, { tenant }) : undefined;
          const ignored = fields?.filter((f) => pdfFieldNameKind(f.name) === 'ignore').map((f) => f.name) ?? [];
          const pdf = fields ? await converter.removeFormFields(converted, { flatten: ignored, tenant }) : converted;
          // pdf.js's view box, the space anchors and the stamp use (page-text.ts).
          const pages = (await textOf(pdf, tenant)).pages.map((p) => ({ width: p.width, height: p.height }));
          return { pdf, pages, ...(fields ? { formFields: fields.filter((f) => !ignored.includes(f.name)) } : {}) };
        } catch (err) {
          throw toEsignError(err, document);
        }
      },
    },
    anchors: {
      // The texts were read when the documents were converted (convert above), on the account's turn.
      async find(pdfs, anchor) {
        const documents = await Promise.all(pdfs.map(async (pdf, documentIndex) => ({ ...(await textOf(pdf)), documentIndex })));
        try {
          const search = toAnchorSearch({
            anchorString: anchor.anchorString,
            anchorUnits: anchor.units,
            anchorXOffset: anchor.xOffset,
            anchorYOffset: anchor.yOffset,
            anchorCaseSensitive: anchor.caseSensitive,
            anchorMatchWholeWord: anchor.matchWholeWord,
            anchorHorizontalAlignment: anchor.horizontalAlignment,
            anchorAllowWhiteSpaceInCharacters: anchor.allowWhiteSpaceInCharacters ?? false,
          });
          let budget = budgets.get(pdfs);
          if (budget === undefined) budgets.set(pdfs, (budget = newSearchBudget()));
          return searchAnchors(documents, search, budget).map((m) => ({ documentIndex: m.documentIndex, pageNumber: m.pageNumber, xPosition: m.x, yPosition: m.y }));
        } catch (err) {
          if (err instanceof PdfError && err.code === 'INVALID_ANCHOR') throw new EsignError('INVALID_REQUEST_BODY', err.message, { cause: err });
          throw err;
        }
      },
    },
  };
}
