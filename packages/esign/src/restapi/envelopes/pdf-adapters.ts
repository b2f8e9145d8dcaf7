import { PdfError, searchAnchors, toAnchorSearch, type Converter, type DocumentText } from '@signet/pdf';
import type { AnchorFinder, DocumentConverter } from '../../domain/envelope/ports.ts';
import { EsignError } from '../../errors.ts';

/** A PdfError about one document, in DocuSign's words (compat/esign-wire.md §6.3). */
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
    default:
      return new EsignError('UNSPECIFIED_ERROR', undefined, { cause: err });
  }
}

/** What the envelope module uses of the pdf package's converter. */
export type EnvelopeConverter = Pick<Converter, 'convert' | 'pageCount' | 'extractText'>;

/** The domain's DocumentConverter over the pdf package's warm converter (parsing runs on its pdf threads). */
export function buildDocumentConverter(converter: EnvelopeConverter): DocumentConverter {
  return {
    async convert(document) {
      try {
        const pdf = await converter.convert({ bytes: document.bytes, fileExtension: document.fileExtension });
        return { pdf, pageCount: await converter.pageCount(pdf) };
      } catch (err) {
        throw toEsignError(err, document);
      }
    },
  };
}

/**
 * The domain's AnchorFinder over the pdf package's search. Text is extracted once per set of
 * documents (createEnvelope passes the same array for every tab), on the converter's pdf
 * threads; matching it is cheap and runs here.
 */
export function buildAnchorFinder(converter: Pick<Converter, 'extractText'>): AnchorFinder {
  const texts = new WeakMap<readonly Uint8Array[], Promise<DocumentText[]>>();
  return {
    async find(pdfs, anchor) {
      let text = texts.get(pdfs);
      if (!text) {
        text = converter.extractText(pdfs);
        texts.set(pdfs, text);
      }
      try {
        const search = toAnchorSearch({
          anchorString: anchor.anchorString,
          anchorUnits: anchor.units,
          anchorXOffset: anchor.xOffset,
          anchorYOffset: anchor.yOffset,
          anchorCaseSensitive: anchor.caseSensitive,
          anchorMatchWholeWord: anchor.matchWholeWord,
          anchorHorizontalAlignment: anchor.horizontalAlignment,
        });
        return searchAnchors(await text, search).map((m) => ({ documentIndex: m.documentIndex, pageNumber: m.pageNumber, xPosition: m.x, yPosition: m.y }));
      } catch (err) {
        if (err instanceof PdfError && err.code === 'INVALID_ANCHOR') throw new EsignError('INVALID_REQUEST_BODY', err.message, { cause: err });
        throw err;
      }
    },
  };
}
