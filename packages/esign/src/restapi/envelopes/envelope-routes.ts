import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CheckListener } from '../../connect/check-listener.ts';
import { createEnvelope } from '../../domain/envelope/create-envelope.ts';
import { getEnvelope } from '../../domain/envelope/get-envelope.ts';
import type { EnvelopeDeps } from '../../domain/envelope/ports.ts';
import type { CompletionResults } from '../../domain/signing/completion-results.ts';
import { completionProblemMessage } from '../../domain/signing/completion-retry.ts';
import { sendEnvelope } from '../../domain/envelope/send-envelope.ts';
import { voidEnvelope } from '../../domain/envelope/void-envelope.ts';
import { EsignError } from '../../errors.ts';
import { assertRight } from '../assert-right.ts';
import { resendEnvelope } from '../../domain/envelope/resend-envelope.ts';
import { unpauseEnvelope } from '../../domain/envelope/resume-workflow.ts';
import { updateEnvelopeEmail } from '../../domain/envelope/update-envelope-email.ts';
import { parseEnvelopeEmailUpdate } from '../../wire/parse-envelope-email-update.ts';
import { parseEnvelopeDefinition } from './parse-envelope-definition.ts';
import { multipartEnvelope } from '../documents/multipart-envelope.ts';
import { createEnvelopeFromTemplates } from '../../domain/templates/create-envelope-from-templates.ts';
import type { TemplateStore } from '../../domain/templates/template-ports.ts';
import { parseTemplatedEnvelope, usesTemplates } from '../templates/parse-templated-envelope.ts';
import { parseEnvelopeUpdate } from './parse-envelope-update.ts';
import { parseStatusChangesQuery, type RawQuery } from './parse-status-changes-query.ts';
import { documentsSeenBy } from './documents-seen-by.ts';
import { toWireCertificateEntry, toWireEnvelope, toWireEnvelopeDocument, toWireEnvelopeSummary, toWireRecipients } from '../../wire/to-wire-envelope.ts';
import type { WireEnvelopesInformation } from '../../wire/wire-types.ts';
import { toWireWorkflow } from '../../wire/to-wire-workflow.ts';
import { envelopeScope } from '../envelope-scope.ts';

export type EnvelopeRouteDeps = {
  readonly envelopes: EnvelopeDeps;
  /** Completion's output: stamped documents served instead of the originals, and why a signed envelope is not completed yet. */
  readonly completion?: CompletionResults;
  /** Connect's configuration-time SSRF check of eventNotification.url; delivery checks again. */
  readonly checkListener?: CheckListener;
  /** Templates an EnvelopeDefinition may name (templateId, compositeTemplates). */
  readonly templates?: TemplateStore;
};

type AccountParams = { accountId: string };
type EnvelopeParams = AccountParams & { envelopeId: string };
type DocumentParams = EnvelopeParams & { documentId: string };

const BASE = '/restapi/v2.1/accounts/:accountId/envelopes';

/** A query flag as the SDK sends it: "true"/"false" strings (the SDK types these options String: docusign-esign
 * src/api/EnvelopesApi.js). */
function flag(query: RawQuery, name: string): boolean {
  const v = query[name];
  return (Array.isArray(v) ? v[0] : v)?.trim().toLowerCase() === 'true';
}

function includes(query: RawQuery): Set<string> {
  const v = query.include;
  return new Set((Array.isArray(v) ? v.join(',') : (v ?? '')).split(',').map((s) => s.trim().toLowerCase()).filter(Boolean));
}

function senderOf(request: FastifyRequest): string {
  // The API guard runs first on every /restapi request; a missing principal is a wiring mistake.
  if (!request.principal) throw new EsignError('AUTHORIZATION_INVALID_TOKEN');
  return request.principal.userId;
}

/** `/envelopes?…` with the request's own query and another start_position. */
function pageUri(query: RawQuery, startPosition: number): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (k !== 'start_position' && v !== undefined) params.set(k, Array.isArray(v) ? v.join(',') : v);
  params.set('start_position', String(startPosition));
  return `/envelopes?${params.toString()}`;
}

/** A file name for Content-Disposition: the document's name, ASCII-safe, ending in .pdf. */
function pdfFileName(name: string): string {
  const base = name.replace(/\.[A-Za-z0-9]{1,10}$/, '').replace(/[^A-Za-z0-9 ._-]+/g, '_').trim() || 'document';
  return `${base}.pdf`;
}

/**
 * The DocuSign Envelopes routes (docusign-esign src/api/EnvelopesApi.js): create, listStatusChanges, get, update
 * (send a draft, void), listRecipients, listDocuments, getDocument.
 */
export function registerEnvelopeRoutes(app: FastifyInstance, deps: EnvelopeRouteDeps): void {
  const d = deps.envelopes;

  // CreateEnvelope also takes multipart/form-data: the EnvelopeDefinition as a JSON part and
  // each document's bytes as a part of their own (restapi/documents/multipart-envelope.ts),
  // within the same body limit as a JSON create. Parsed only on this route.
  void app.register((scope, _options, done) => {
    scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (request, body, next) => {
      try {
        next(null, multipartEnvelope(body as Buffer, request.headers['content-type']));
      } catch (err) {
        next(err as Error);
      }
    });
    scope.post<{ Params: AccountParams }>(BASE, async (request, reply) => {
      const templates = deps.templates;
      const templated = templates !== undefined && usesTemplates(request.body);
      // The route is the envelopes' (send); taking a template's content is using templates.
      if (templated) assertRight(request, 'useTemplates');
      const draft = templated ? parseTemplatedEnvelope(request.body) : parseEnvelopeDefinition(request.body);
      if (draft.eventNotification) await deps.checkListener?.(draft.eventNotification.url, 'eventNotification.url');
      const input = { accountId: request.params.accountId, senderUserId: senderOf(request) };
      const envelope = 'composites' in draft ? await createEnvelopeFromTemplates({ templates: templates as TemplateStore, envelopes: d }, { ...input, draft }) : await createEnvelope(d, { ...input, draft });
      // DocuSign answers 201 to CreateEnvelope (DocuSign REST reference, Envelopes: create).
      return reply.code(201).send(toWireEnvelopeSummary(envelope));
    });
    done();
  });

  app.get<{ Params: AccountParams; Querystring: RawQuery }>(BASE, async (request) => {
    const query = { ...parseStatusChangesQuery(request.query), viewerUserId: senderOf(request), ...envelopeScope(request) };
    const { envelopes, totalSetSize } = await d.store.list(request.params.accountId, query);
    const wanted = includes(request.query);
    const body: WireEnvelopesInformation = {
      resultSetSize: String(envelopes.length),
      totalSetSize: String(totalSetSize),
      startPosition: String(query.startPosition),
      endPosition: String(Math.max(query.startPosition, query.startPosition + envelopes.length - 1)),
      // DocuSign pages with nextUri/previousUri: the same query at the next (previous) start_position.
      nextUri: query.startPosition + envelopes.length < totalSetSize ? pageUri(request.query, query.startPosition + envelopes.length) : '',
      previousUri: query.startPosition > 0 ? pageUri(request.query, Math.max(0, query.startPosition - query.count)) : '',
      envelopes: envelopes.map((e) => toWireEnvelope(e, { recipients: wanted.has('recipients'), documents: wanted.has('documents'), tabs: wanted.has('tabs'), customFields: wanted.has('custom_fields') })),
    };
    return body;
  });

  app.get<{ Params: EnvelopeParams; Querystring: RawQuery }>(`${BASE}/:envelopeId`, async (request) => {
    const envelope = await getEnvelope(d, request.params.accountId, request.params.envelopeId);
    const wanted = includes(request.query);
    const wire = toWireEnvelope(envelope, { recipients: wanted.has('recipients'), documents: wanted.has('documents'), tabs: wanted.has('tabs') || flag(request.query, 'include_anchor_tab_locations'), notification: true, customFields: wanted.has('custom_fields') });
    // A signed envelope stuck in completion says so, in the Envelope model's own errorDetails.
    const problem = envelope.status === 'signed' ? await deps.completion?.problem(envelope.envelopeId) : undefined;
    // The Envelope model's workflow, for an envelope that has one (paused, scheduled, delayed).
    const withWorkflow = envelope.workflow ? { ...wire, workflow: toWireWorkflow(envelope.workflow) } : wire;
    return problem ? { ...withWorkflow, errorDetails: { errorCode: 'COMPLETION_FAILED', message: completionProblemMessage(problem) } } : withWorkflow;
  });

  app.put<{ Params: EnvelopeParams; Querystring: RawQuery }>(`${BASE}/:envelopeId`, async (request) => {
    const { accountId, envelopeId } = request.params;
    const update = parseEnvelopeUpdate(request.body);
    const email = parseEnvelopeEmailUpdate(request.body);
    // resend_envelope=true (EnvelopesApi.update option): the pending signers get their mail
    // again, with the call's new subject/message in the same change. Not when this call sends
    // the draft (that is the mail: twice would be a duplicate) or voids it.
    const resend = flag(request.query, 'resend_envelope') && update.action === 'none';
    // A new subject/message first, so a send in the same call uses it.
    if (!resend && (email.emailSubject !== undefined || email.emailBlurb !== undefined)) await updateEnvelopeEmail(d, accountId, envelopeId, email);
    if (update.action === 'send') await sendEnvelope(d, accountId, envelopeId);
    else if (update.action === 'void') await voidEnvelope(d, accountId, envelopeId, update.voidedReason);
    else if (update.action === 'resume') await unpauseEnvelope(d, accountId, envelopeId);
    else if (resend) await resendEnvelope(d, accountId, envelopeId, email);
    else await getEnvelope(d, accountId, envelopeId);
    // EnvelopeUpdateSummary: DocuSign answers the id (docusign-esign src/model/EnvelopeUpdateSummary.js).
    return { envelopeId };
  });

  app.get<{ Params: EnvelopeParams; Querystring: RawQuery }>(`${BASE}/:envelopeId/recipients`, async (request) => {
    const envelope = await getEnvelope(d, request.params.accountId, request.params.envelopeId);
    return toWireRecipients(envelope, flag(request.query, 'include_tabs') || flag(request.query, 'include_anchor_tab_locations'));
  });

  app.get<{ Params: EnvelopeParams; Querystring: RawQuery }>(`${BASE}/:envelopeId/documents`, async (request) => {
    const envelope = await getEnvelope(d, request.params.accountId, request.params.envelopeId);
    // recipient_id: the documents as that recipient sees them (DocuSign listDocuments; domain/envelope/document-visibility.ts).
    const documents = documentsSeenBy(envelope, request.query).map((doc) => toWireEnvelopeDocument(envelope, doc));
    // The certificate of completion is listed once it exists, as DocuSign lists its summary.
    return { envelopeId: envelope.envelopeId, envelopeDocuments: envelope.status === 'completed' ? [...documents, toWireCertificateEntry(envelope)] : documents };
  });

  app.get<{ Params: DocumentParams; Querystring: RawQuery }>(`${BASE}/:envelopeId/documents/:documentId`, async (request, reply) => {
    const { accountId, envelopeId, documentId } = request.params;
    const envelope = await getEnvelope(d, accountId, envelopeId);
    // With recipient_id, a document hidden from that recipient is not there.
    const document = documentsSeenBy(envelope, request.query).find((doc) => doc.documentId === documentId);
    // combined, certificate, archive and portfolio are the signing module's (static segments win).
    if (!document) throw new EsignError('DOCUMENT_DOES_NOT_EXIST', `documentId "${documentId}" is not in the envelope.`);
    const signed = envelope.status === 'completed' ? await deps.completion?.signedDocument(envelopeId, documentId) : undefined;
    const pdf = signed ?? (await d.store.documentPdf(accountId, envelopeId, documentId));
    if (!pdf) throw new EsignError('DOCUMENT_DOES_NOT_EXIST');
    // The SDK reads raw PDF bytes with Accept: application/pdf (getDocument, docusign-esign src/api/EnvelopesApi.js).
    return reply.type('application/pdf').header('content-disposition', `file; filename="${pdfFileName(document.name)}"`).send(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
  });
}

