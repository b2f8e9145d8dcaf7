import { drawTabValues, mergePdfs, renderCertificate, sealPdf, signedCaption, stampSignatures, type SealIdentity, type Signature, type SignatureStamp, type StampOptions, type TabValueStamp } from '@signet/pdf';
import { inDownload } from '../domain/envelope/document-supplement.ts';
import { signsDocuments } from '../domain/envelope/recipient-kinds.ts';
import { signerTabsOf } from '../domain/signing/signer-tabs.ts';
import { tabSize } from '../domain/tabs/tab-size.ts';
import { tabValueLines, tabValueStamps } from './tab-value-stamps.ts';
import { certificateLabels, inPersonSignerLine, witnessLine } from './certificate-labels.ts';
import { envelopeLanguage } from '../domain/language/languages.ts';
import type { Envelope } from '../domain/envelope/envelope.ts';
import type { AuditEvent } from '../domain/signing/audit-event.ts';
import type { AdoptedSignature, CompletionResult } from '../store/signing-repository.ts';

export type CompletionInput = {
  readonly envelope: Envelope;
  /** The stored (converted) PDF of each document, by documentId. */
  readonly pdfs: ReadonlyMap<string, Uint8Array>;
  readonly signatures: ReadonlyMap<string, AdoptedSignature>;
  readonly audit: readonly AuditEvent[];
  readonly sender?: { name: string; email: string } | undefined;
  readonly seal: SealIdentity;
  readonly now: Date;
  /** The typed-signature font (the pdf package loads Debian's Dancing Script by default). */
  readonly signatureFont?: Uint8Array;
  /** Default: stamping on this thread; the server passes its pdf threads' (images decode there). */
  readonly stamp?: StampFn;
  /** Default: drawing on this thread; the server passes its pdf threads'. */
  readonly drawValues?: DrawValuesFn;
};

/** {@link drawTabValues}'s shape: the seam for drawing on a pdf worker thread. */
export type DrawValuesFn = (pdf: Uint8Array, stamps: readonly TabValueStamp[]) => Promise<Uint8Array>;

/** {@link stampSignatures}'s shape: the seam for stamping on a pdf worker thread. */
export type StampFn = (pdf: Uint8Array, stamps: readonly SignatureStamp[], options: StampOptions) => Promise<Uint8Array>;

/** The adopted signature as a SignHere tab shows it; an InitialHere tab shows a typed name's initials. */
function toSignature(s: AdoptedSignature, initials: boolean): Signature {
  if (s.kind === 'image' && s.image) return { type: 'image', image: s.image };
  const text = s.typedText ?? '';
  return { type: 'typed', text: initials ? text.split(' ').map((w) => w.charAt(0)).join('').toUpperCase() : text };
}

/**
 * envelopeIdStamping: the envelope id in small print at the top left of every page (DocuSign
 * stamps each page of an envelope with its id), drawn with the tab values so the seal covers it.
 */
function envelopeIdStamps(envelopeId: string, pages: number): TabValueStamp[] {
  return Array.from({ length: pages }, (_, i) => ({ pageNumber: i + 1, x: 12, y: 6, width: 300, height: 10, value: { kind: 'text' as const, text: `Envelope ID: ${envelopeId.toUpperCase()}`, style: { size: 7, color: [0.25, 0.25, 0.25] as const } } }));
}

/**
 * The completed envelope's files, in the only order that keeps a seal valid: draw every tab's
 * final value and stamp every signature into its document at its tab (pdf-lib), merge, append
 * the certificate of completion, and seal last (pdf-lib rewrites the whole file, so any re-save
 * after sealing breaks it: docs/pdf.md, "Stamping, certificate, seal"). Three sealed files come
 * out (combined with and without the certificate, and the certificate alone) plus each stamped
 * document, which is not sealed on its own.
 */
export async function buildCompletedPdfs(input: CompletionInput): Promise<CompletionResult> {
  const { envelope } = input;
  const signedDocuments = new Map<string, Uint8Array>();
  const stamp = input.stamp ?? stampSignatures;
  const drawValues = input.drawValues ?? drawTabValues;
  const signers = envelope.recipients.filter(signsDocuments).map((r) => {
    const tabs = signerTabsOf(r);
    return { recipient: r, tabs, values: tabs.map((t) => t.value) };
  });
  for (const document of envelope.documents) {
    const original = input.pdfs.get(document.documentId);
    if (!original) throw new TypeError(`no stored PDF for document ${document.documentId}`);
    const stamps: SignatureStamp[] = [];
    const values: TabValueStamp[] = [];
    for (const { recipient: signer, tabs, values: final } of signers) {
      values.push(...tabValueStamps(tabs, final, document.documentId, envelope.account?.signDateFormat));
      const adopted = input.signatures.get(signer.recipientId);
      if (!adopted) continue;
      const signedTabs = new Set(adopted.signedTabIds);
      for (const { tabId, tab, places } of tabs) {
        if ((tab.type !== 'signHere' && tab.type !== 'initialHere') || !signedTabs.has(tabId)) continue;
        const size = tabSize(tab);
        for (const place of places) {
          if (place.documentId !== document.documentId) continue;
          stamps.push({
            pageNumber: place.pageNumber,
            x: place.xPosition,
            y: place.yPosition,
            width: size.width,
            height: size.height,
            signature: toSignature(adopted, tab.type === 'initialHere'),
            ...(tab.type === 'signHere' ? { caption: signedCaption(signer.name, signer.signedAt ?? adopted.adoptedAt) } : {}),
          });
        }
      }
    }
    if (envelope.envelopeIdStamping) values.push(...envelopeIdStamps(envelope.envelopeId, document.pageCount));
    // Values first, signatures over them: a signature is never hidden under a field's text.
    const withValues = values.length === 0 ? original : await drawValues(original, values);
    signedDocuments.set(document.documentId, stamps.length === 0 ? withValues : await stamp(withValues, stamps, input.signatureFont ? { signatureFont: input.signatureFont } : {}));
  }

  const signedEvent = (recipientId: string) => input.audit.find((e) => e.action === 'Signed' && e.recipientId === recipientId);
  // One certificate for every party, in the first recipient's language (docs/esign-languages.md).
  const language = envelopeLanguage(envelope);
  const certificate = await renderCertificate({
    labels: certificateLabels(language, envelope.account),
    envelopeId: envelope.envelopeId,
    subject: envelope.emailSubject,
    status: 'completed',
    ...(input.sender ? { sender: input.sender } : {}),
    ...(envelope.sentAt ? { sentAt: envelope.sentAt } : {}),
    completedAt: input.now,
    signers: envelope.recipients.filter(signsDocuments).map((r) => {
      const event = signedEvent(r.recipientId);
      const own = signers.find((s) => s.recipient.recipientId === r.recipientId);
      const lines = own ? tabValueLines(own.tabs, own.values, envelope.account?.signDateFormat) : [];
      return {
        name: r.host ? inPersonSignerLine(language, r.name, r.host) : r.witnessFor !== undefined ? witnessLine(language, r.name, envelope.recipients.find((s) => s.recipientId === r.witnessFor)?.name ?? r.witnessFor) : r.name, email: r.email, status: r.status, routingOrder: r.routingOrder, ...(event?.ipAddress ? { ipAddress: event.ipAddress } : {}), ...(r.signedAt ? { signedAt: r.signedAt } : {}),
        ...(lines.length > 0 ? { tabValues: lines } : {}),
      };
    }),
    carbonCopies: envelope.recipients.filter((r) => r.type === 'carbonCopy').map((r) => ({ name: r.name, email: r.email })),
    certifiedDeliveries: envelope.recipients.filter((r) => r.type === 'certifiedDelivery').map((r) => {
      const event = input.audit.find((e) => e.action === 'Acknowledged' && e.recipientId === r.recipientId);
      return { name: r.name, email: r.email, routingOrder: r.routingOrder, ...(event?.ipAddress ? { ipAddress: event.ipAddress } : {}), ...(r.completedAt ? { acknowledgedAt: r.completedAt } : {}) };
    }),
    events: [...input.audit, { at: input.now, action: 'Completed', message: 'Every signer has signed; the documents were stamped and sealed.' }].map((e) => ({
      at: e.at,
      event: `${e.action}: ${e.message}`,
      ...('name' in e && e.name ? { actor: 'email' in e && e.email ? `${e.name} <${e.email}>` : e.name } : {}),
      ...('ipAddress' in e && e.ipAddress ? { ipAddress: e.ipAddress } : {}),
      ...('userAgent' in e && e.userAgent ? { userAgent: e.userAgent } : {}),
    })),
    // The fingerprints of the documents as sent, which is what the signers were shown.
    documents: envelope.documents.map((d) => ({ name: d.name, sha256: d.sha256, pages: d.pageCount })),
    generatedAt: input.now,
  });

  // A supplemental document with includeInDownload false stays out of the combined files
  // (DocuSign "Supplemental Documents"); it is still stamped and kept on its own, and listed on the certificate.
  const ordered = inDownload(envelope.documents).map((d) => signedDocuments.get(d.documentId) as Uint8Array);
  const seal = { ...input.seal, signingTime: input.now };
  const [combinedWithCertificate, combinedDocuments, sealedCertificate] = await Promise.all([
    mergePdfs([...ordered, certificate]).then((pdf) => sealPdf(pdf, seal)),
    mergePdfs(ordered).then((pdf) => sealPdf(pdf, seal)),
    sealPdf(certificate, seal),
  ]);
  return { combinedWithCertificate, combinedDocuments, certificate: sealedCertificate, signedDocuments };
}
