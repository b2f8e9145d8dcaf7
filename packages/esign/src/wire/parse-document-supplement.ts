import { ACKNOWLEDGEMENTS, DOCUMENT_DISPLAYS, type Acknowledgement, type DocumentDisplay, type DocumentSupplement } from '../domain/envelope/document-supplement.ts';
import type { WireReader } from './wire-reader.ts';

/**
 * A Document's display, signerMustAcknowledge and includeInDownload (docusign-esign
 * src/model/Document.js; DocuSign "Supplemental Documents"): a supplement when display is
 * `modal` or `download`. The other two ask something only of a supplement: set on an inline
 * document they are refused by name rather than dropped. Values are matched in any case, as
 * DocuSign matches them. Undefined for an inline document.
 */
export function parseDocumentSupplement(doc: WireReader): DocumentSupplement | undefined {
  const display = doc.field('display').oneOf<DocumentDisplay>(DOCUMENT_DISPLAYS, 'inline');
  const signerMustAcknowledge = doc.field('signerMustAcknowledge').oneOf<Acknowledgement>(ACKNOWLEDGEMENTS, 'no_interaction');
  const includeInDownload = doc.field('includeInDownload').boolean(true);
  if (display === 'inline') {
    if (signerMustAcknowledge !== 'no_interaction') doc.field('signerMustAcknowledge').fail('applies to a supplemental document: set display to "modal" or "download".');
    if (!includeInDownload) doc.field('includeInDownload').fail('applies to a supplemental document: set display to "modal" or "download".');
    return undefined;
  }
  return { display, signerMustAcknowledge, includeInDownload };
}
