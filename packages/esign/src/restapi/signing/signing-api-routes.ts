import type { FastifyInstance, FastifyReply } from 'fastify';
import { queriedRecipient } from '../envelopes/documents-seen-by.ts';
import { visibleDocuments } from '../../domain/envelope/document-visibility.ts';
import { recipientCopy } from '../../domain/signing/recipient-copy.ts';
import { inDownload } from '../../domain/envelope/document-supplement.ts';
import { mergePdfs } from '@signet/pdf';
import { getEnvelope } from '../../domain/envelope/get-envelope.ts';
import type { EnvelopeDeps } from '../../domain/envelope/ports.ts';
import { EsignError } from '../../errors.ts';
import { loadUnexpired } from '../../domain/notification/load-unexpired.ts';
import type { NotificationStepDeps } from '../../domain/notification/notification-step.ts';
import { newSecretToken, sha256Hex } from '../../security/secret-token.ts';
import type { AuditEventsRepository } from '../../store/audit-events-repository.ts';
import type { SigningRepository } from '../../store/signing-repository.ts';
import { registerArchiveRoutes } from '../documents/archive-routes.ts';
import { findEmbeddedSigner } from './find-embedded-signer.ts';
import { parseRecipientViewRequest } from './parse-recipient-view-request.ts';
import { toWireAuditEvents } from './to-wire-audit-events.ts';

export type SigningApiDeps = {
  readonly envelopes: EnvelopeDeps;
  readonly signing: SigningRepository;
  readonly audit: AuditEventsRepository;
  readonly publicUrl: string;
  /** How long a recipient view URL can be redeemed (DocuSign: 5 minutes). */
  readonly viewTtlMs: number;
  /** Expires an envelope past its expiry time before a view of it is made. */
  readonly expiry: NotificationStepDeps;
};

type EnvelopeParams = { accountId: string; envelopeId: string };
const BASE = '/restapi/v2.1/accounts/:accountId/envelopes/:envelopeId';

/** The path a recipient view URL redeems at (signing/recipient-view-redeem.ts). */
export const VIEW_PATH = '/signing/view/';

function sendPdf(reply: FastifyReply, bytes: Uint8Array, name: string) {
  // The SDK reads raw PDF bytes with Accept: application/pdf (getDocument, docusign-esign src/api/EnvelopesApi.js).
  return reply.type('application/pdf').header('content-disposition', `file; filename="${name}"`).send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

/**
 * The REST side of signing (docusign-esign src/api/EnvelopesApi.js): createRecipientView, listAuditEvents, and
 * getDocument for `combined` and `certificate`. Static path segments win over the envelope
 * module's `documents/:documentId` in Fastify's router, so these need no change there.
 */
export function registerSigningApiRoutes(app: FastifyInstance, deps: SigningApiDeps): void {
  const d = deps.envelopes;

  app.post<{ Params: EnvelopeParams }>(`${BASE}/views/recipient`, async (request, reply) => {
    const view = parseRecipientViewRequest(request.body);
    const now = d.clock();
    const envelope = await loadUnexpired(d, deps.expiry, request.params.accountId, request.params.envelopeId, now);
    if (!['sent', 'delivered'].includes(envelope.status)) throw new EsignError('ENVELOPE_INVALID_STATUS', `The envelope is ${envelope.status}${envelope.voidedReason ? ` (${envelope.voidedReason})` : ''}; only sent or delivered envelopes can be signed.`);
    const signer = findEmbeddedSigner(envelope, view);
    const token = newSecretToken();
    await deps.signing.createRecipientView({ tokenHash: sha256Hex(token), envelopeId: envelope.envelopeId, recipientId: signer.recipientId, returnUrl: view.returnUrl, createdAt: now, expiresAt: new Date(now.getTime() + deps.viewTtlMs), ...(view.frame ? { frame: view.frame } : {}) });
    // ViewUrl {url}: short-lived and single-use; the browser is sent there (iframe or redirect).
    return reply.code(201).send({ url: `${deps.publicUrl}${VIEW_PATH}${token}` });
  });

  app.get<{ Params: EnvelopeParams }>(`${BASE}/audit_events`, async (request) => {
    const envelope = await getEnvelope(d, request.params.accountId, request.params.envelopeId);
    return toWireAuditEvents(await deps.audit.list(envelope.envelopeId));
  });

  app.get<{ Params: EnvelopeParams; Querystring: Record<string, string | string[] | undefined> }>(`${BASE}/documents/combined`, async (request, reply) => {
    const envelope = await getEnvelope(d, request.params.accountId, request.params.envelopeId);
    const raw = request.query.certificate;
    // DocuSign: "When set to false, the envelope signing certificate is removed from the download."
    const withCertificate = (Array.isArray(raw) ? raw[0] : raw)?.trim().toLowerCase() !== 'false';
    const result = envelope.status === 'completed' ? await deps.signing.result(envelope.envelopeId) : undefined;
    // recipient_id: that recipient's copy (only their documents when some are hidden from them).
    const recipient = queriedRecipient(envelope, request.query);
    if (result && recipient) return sendPdf(reply, await recipientCopy(envelope, recipient, () => Promise.resolve(new Uint8Array(withCertificate ? result.combined_with_certificate : result.combined_documents)), (documentId) => deps.signing.signedDocument(envelope.envelopeId, documentId)), `envelope-${envelope.envelopeId}.pdf`);
    if (result) return sendPdf(reply, withCertificate ? result.combined_with_certificate : result.combined_documents, `envelope-${envelope.envelopeId}.pdf`);
    // In process: the documents as sent, merged (no signatures or certificate exist yet).
    const pdfs: Uint8Array[] = [];
    for (const doc of inDownload(recipient ? visibleDocuments(envelope, recipient) : envelope.documents)) {
      const pdf = await d.store.documentPdf(envelope.accountId, envelope.envelopeId, doc.documentId);
      if (!pdf) throw new EsignError('DOCUMENT_DOES_NOT_EXIST');
      pdfs.push(pdf);
    }
    return sendPdf(reply, await mergePdfs(pdfs), `envelope-${envelope.envelopeId}.pdf`);
  });

  registerArchiveRoutes(app, { envelopes: d, signing: deps.signing });

  app.get<{ Params: EnvelopeParams }>(`${BASE}/documents/certificate`, async (request, reply) => {
    const envelope = await getEnvelope(d, request.params.accountId, request.params.envelopeId);
    const result = envelope.status === 'completed' ? await deps.signing.result(envelope.envelopeId) : undefined;
    if (!result) throw new EsignError('DOCUMENT_DOES_NOT_EXIST', 'The certificate of completion exists once the envelope is completed.');
    return sendPdf(reply, result.certificate, `certificate-${envelope.envelopeId}.pdf`);
  });
}
