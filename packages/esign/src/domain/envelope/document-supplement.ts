import { EsignError } from '../../errors.ts';
import type { Envelope, EnvelopeDocument, Recipient } from './envelope.ts';
import type { PlacedTab } from './placed-tab.ts';
import { visibleDocuments } from './document-visibility.ts';

/**
 * Supplemental documents (DocuSign "Supplemental Documents", Document.display,
 * signerMustAcknowledge, includeInDownload; docs/esign-envelopes.md "Supplemental documents"):
 * disclosures and terms a signer views or accepts but signs nothing on. `modal` shows one in a
 * dialog on the signing page, `download` hands it over as a file; `inline` (the default) is an
 * ordinary document whose pages are signed.
 */
export type DocumentDisplay = 'inline' | 'modal' | 'download';
export const DOCUMENT_DISPLAYS: readonly DocumentDisplay[] = ['inline', 'modal', 'download'];

/** What a signer must do with a supplemental document before Finish (DocuSign's four values). */
export type Acknowledgement = 'no_interaction' | 'view' | 'accept' | 'view_accept';
export const ACKNOWLEDGEMENTS: readonly Acknowledgement[] = ['no_interaction', 'view', 'accept', 'view_accept'];

/** A supplemental document's settings; an inline document has none. */
export type DocumentSupplement = {
  readonly display: Exclude<DocumentDisplay, 'inline'>;
  readonly signerMustAcknowledge: Acknowledgement;
  /** false: left out of the combined download and the completed package (the document alone stays downloadable by the sender). */
  readonly includeInDownload: boolean;
};

export function isSupplemental(d: EnvelopeDocument): d is EnvelopeDocument & { supplement: DocumentSupplement } {
  return d.supplement !== undefined;
}

/** What one recipient owes one supplemental document before Finish. */
export type AcknowledgementDue = { readonly documentId: string; readonly name: string; readonly view: boolean; readonly accept: boolean };

/** Only those who sign are asked (DocuSign: carbon copies and certified deliveries see supplements but are assigned no action). */
function acknowledges(r: Recipient): boolean {
  return r.type === 'signer' || r.type === 'inPersonSigner';
}

/**
 * Each supplemental document the recipient must view or accept. DocuSign: signerMustAcknowledge
 * applies to a signer without a View tab on the document; a signer who has one views it when the
 * tab says requiredRead, and owes nothing else.
 */
export function acknowledgementsDue(envelope: Envelope, recipient: Recipient): AcknowledgementDue[] {
  if (!acknowledges(recipient)) return [];
  const due: AcknowledgementDue[] = [];
  // A supplement hidden from the recipient (document-visibility.ts) asks nothing of them.
  for (const d of visibleDocuments(envelope, recipient)) {
    if (!isSupplemental(d)) continue;
    const viewTabs = recipient.tabs.filter((t) => t.tab.type === 'view' && t.documentId === d.documentId);
    const ack = d.supplement.signerMustAcknowledge;
    const view = viewTabs.length > 0 ? viewTabs.some((t) => t.tab.type === 'view' && t.tab.requiredRead) : ack === 'view' || ack === 'view_accept';
    const accept = viewTabs.length === 0 && (ack === 'accept' || ack === 'view_accept');
    if (view || accept) due.push({ documentId: d.documentId, name: d.name, view, accept });
  }
  return due;
}

/**
 * The server's check at Finish (the page's is only a convenience): every view the recipient owes
 * was recorded (they fetched the document), every acceptance was posted. Throws
 * SUPPLEMENT_NOT_ACKNOWLEDGED naming the first document left.
 */
export function assertAcknowledged(due: readonly AcknowledgementDue[], done: { readonly viewed: ReadonlySet<string>; readonly accepted: ReadonlySet<string> }): void {
  for (const d of due) {
    if (d.view && !done.viewed.has(d.documentId)) throw new EsignError('SUPPLEMENT_NOT_ACKNOWLEDGED', `View "${d.name}" (documentId ${d.documentId}) before finishing.`);
    if (d.accept && !done.accepted.has(d.documentId)) throw new EsignError('SUPPLEMENT_NOT_ACKNOWLEDGED', `Accept "${d.name}" (documentId ${d.documentId}) before finishing.`);
  }
}

/** The documents a combined download holds (DocuSign includeInDownload): every inline one, and the supplemental ones not excluded. */
export function inDownload(documents: readonly EnvelopeDocument[]): EnvelopeDocument[] {
  return documents.filter((d) => d.supplement?.includeInDownload !== false);
}

/**
 * DocuSign: no fields are placed on a supplement; a View tab is its one control. Refused at
 * create, after placement, so that an anchor found in a supplement is refused too.
 */
export function assertNoTabsOnSupplements(documents: readonly EnvelopeDocument[], recipientId: string, tabs: readonly PlacedTab[]): void {
  const supplements = new Set(documents.filter(isSupplemental).map((d) => d.documentId));
  if (supplements.size === 0) return;
  for (const t of tabs) {
    const spots = t.radios ?? [t];
    const on = spots.find((s) => supplements.has(s.documentId));
    if (on && t.tab.type !== 'view') throw new EsignError('INVALID_REQUEST_BODY', `recipientId ${recipientId}: a ${t.tab.type} tab lies on documentId ${on.documentId}, a supplemental document (display modal or download); only a view tab may be placed on one.`);
  }
}
