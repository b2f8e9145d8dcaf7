import { EsignError } from '../../errors.ts';
import type { EnvelopeDocument } from '../envelope/envelope.ts';
import type { TabOnPage } from '../tabs/tab-on-page.ts';
import { shownTabs } from '../tabs/values/find-tab-problems.ts';

/** A file a signer attached to one of their signerAttachment tabs, already made a PDF (attachmentToPdf). */
export type SignerUpload = { readonly tabId: string; readonly pdf: Uint8Array; readonly pageCount: number; readonly sha256: string };

/**
 * The documents a signer's attachments add to the envelope (DocuSign: a signer attachment
 * becomes a document of the envelope once the signer finishes): one per attached file, after
 * the others, named by its tab's label. Every required attachment tab the signer is shown must
 * have its file (INVALID_TAB_VALUE otherwise, as a required tab left blank), and a file only
 * goes to the signer's own attachment tabs.
 */
export function attachmentDocuments(documents: readonly EnvelopeDocument[], tabs: readonly TabOnPage[], values: readonly string[], uploads: readonly SignerUpload[]): { documents: EnvelopeDocument[]; pdfs: Map<string, Uint8Array> } {
  const shown = shownTabs(tabs.map((t) => t.tab), values);
  const byTab = new Map(uploads.map((u) => [u.tabId, u]));
  for (const u of uploads) {
    const tab = tabs.find((t) => t.tabId === u.tabId);
    if (tab?.tab.type !== 'signerAttachment') throw new EsignError('INVALID_TAB_OPERATION', `Tab ${u.tabId.slice(0, 100)} is not one of this recipient's signer attachment tabs.`);
  }
  const missing = tabs.filter((t, i) => t.tab.type === 'signerAttachment' && t.tab.required && shown[i] && !byTab.has(t.tabId));
  if (missing.length > 0) {
    throw new EsignError('INVALID_TAB_VALUE', missing.map((t) => `tab ${t.tabId} "${t.tab.tabLabel ?? t.tab.name ?? 'Attachment'}": Attach a file to continue.`).join('; '));
  }
  let next = documents.reduce((max, d) => Math.max(max, Number(d.documentId) || 0), 0);
  const added: EnvelopeDocument[] = [];
  const pdfs = new Map<string, Uint8Array>();
  for (const t of tabs) {
    const upload = byTab.get(t.tabId);
    if (!upload) continue;
    const documentId = String(++next);
    added.push({ documentId, name: (t.tab.tabLabel ?? t.tab.name ?? 'Signer attachment').slice(0, 100), fileExtension: 'pdf', order: documents.length + added.length + 1, pageCount: upload.pageCount, sha256: upload.sha256 });
    pdfs.set(documentId, upload.pdf);
  }
  return { documents: [...documents, ...added], pdfs };
}
