import type { FastifyInstance } from 'fastify';
import { buildPortfolio } from '@signet/pdf';
import type { Envelope } from '../../domain/envelope/envelope.ts';
import { getEnvelope } from '../../domain/envelope/get-envelope.ts';
import type { EnvelopeDeps } from '../../domain/envelope/ports.ts';
import { EsignError } from '../../errors.ts';
import type { SigningRepository } from '../../store/signing-repository.ts';
import { safeEntryName, uniqueNames } from './archive-entries.ts';
import { storedZip, type ZipEntry } from './stored-zip.ts';

type EnvelopeParams = { accountId: string; envelopeId: string };
const BASE = '/restapi/v2.1/accounts/:accountId/envelopes/:envelopeId/documents';

/**
 * getDocument's `archive` and `portfolio` (DocuSign: "all the documents as a combined PDF,
 * portfolio PDF, or ZIP archive"). The archive is a ZIP of every document, each a PDF named
 * after the document (archive-entries.ts), plus the certificate of completion once the
 * envelope is completed: the signed and stamped documents then, the documents as sent before.
 * The portfolio is one PDF with the same files embedded whole (sealed documents keep their
 * seal). Scoped to the caller's account like every envelope read: another account's envelope id
 * is ENVELOPE_DOES_NOT_EXIST.
 */
export function registerArchiveRoutes(app: FastifyInstance, deps: { envelopes: EnvelopeDeps; signing: Pick<SigningRepository, 'result' | 'signedDocument'> }): void {
  const d = deps.envelopes;

  // Every document (the signed one once completed) and the certificate, uniquely named.
  async function envelopeFiles(envelope: Envelope, recipientId: unknown, what: string): Promise<{ name: string; bytes: Uint8Array }[]> {
    // The sender's whole envelope with its certificate, which names every document: a
    // recipient's view of it is not made, so asking for one is refused rather than ignored.
    if (recipientId !== undefined && recipientId !== '') {
      throw new EsignError('INVALID_REQUEST_PARAMETER', `recipient_id: ${what} holds every document and the certificate; for the documents one recipient sees, get "combined" or each document with recipient_id.`);
    }
    const result = envelope.status === 'completed' ? await deps.signing.result(envelope.envelopeId) : undefined;
    const files: { name: string; bytes: Uint8Array }[] = [];
    for (const doc of envelope.documents) {
      const bytes = (result ? await deps.signing.signedDocument(envelope.envelopeId, doc.documentId) : undefined) ?? (await d.store.documentPdf(envelope.accountId, envelope.envelopeId, doc.documentId));
      if (!bytes) throw new EsignError('DOCUMENT_DOES_NOT_EXIST', `documentId "${doc.documentId}"`);
      files.push({ name: safeEntryName(doc.name), bytes });
    }
    if (result) files.push({ name: 'Summary.pdf', bytes: result.certificate });
    const names = uniqueNames(files.map((f) => f.name));
    return files.map((f, i) => ({ name: names[i] ?? f.name, bytes: f.bytes }));
  }

  app.get<{ Params: EnvelopeParams; Querystring: Record<string, unknown> }>(`${BASE}/archive`, async (request, reply) => {
    const envelope = await getEnvelope(d, request.params.accountId, request.params.envelopeId);
    const entries: ZipEntry[] = await envelopeFiles(envelope, request.query.recipient_id, 'an archive');
    const zip = storedZip(entries, envelope.completedAt ?? envelope.statusChangedAt);
    return reply.type('application/zip').header('content-disposition', `file; filename="envelope-${envelope.envelopeId}.zip"`).send(Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength));
  });

  app.get<{ Params: EnvelopeParams; Querystring: Record<string, unknown> }>(`${BASE}/portfolio`, async (request, reply) => {
    const envelope = await getEnvelope(d, request.params.accountId, request.params.envelopeId);
    const files = await envelopeFiles(envelope, request.query.recipient_id, 'a portfolio');
    const pdf = await buildPortfolio(files, { title: `Envelope ${envelope.envelopeId}`, at: envelope.completedAt ?? envelope.statusChangedAt });
    return reply.type('application/pdf').header('content-disposition', `file; filename="envelope-${envelope.envelopeId}-portfolio.pdf"`).send(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
  });
}
