import { recipientLanguage } from '../domain/language/languages.ts';
import { PdfError } from '@signet/pdf';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EsignContext } from '../context.ts';
import type { Envelope } from '../domain/envelope/envelope.ts';
import { getEnvelope } from '../domain/envelope/get-envelope.ts';
import type { EnvelopeDeps } from '../domain/envelope/ports.ts';
import { applySigningChange } from '../domain/signing/apply-signing-change.ts';
import type { AdoptedSignature } from '../domain/signing/adopted-signature.ts';
import type { AuditActor } from '../domain/signing/audit-event.ts';
import { signerAccess, type SignerAccess } from '../domain/signing/signer-access.ts';
import { signerTabsOf } from '../domain/signing/signer-tabs.ts';
import { declineSigning, finishSigning, recordSupplementView, recordView } from '../domain/signing/signing-changes.ts';
import { acknowledgementsDue, isSupplemental } from '../domain/envelope/document-supplement.ts';
import type { EnvelopeDocument, Recipient } from '../domain/envelope/envelope.ts';
import { visibleDocuments } from '../domain/envelope/document-visibility.ts';
import { recipientCopy } from '../domain/signing/recipient-copy.ts';
import type { AuditEventsRepository } from '../store/audit-events-repository.ts';
import type { SupplementOnPage } from './supplement-strip.ts';
import { EsignError } from '../errors.ts';
import { envelopeDeclinedMail } from '../mail/templates/envelope-declined-mail.ts';
import { loadUnexpired } from '../domain/notification/load-unexpired.ts';
import { EXPIRED_VOIDED_REASON, type NotificationStepDeps } from '../domain/notification/notification-step.ts';
import type { SigningRepository } from '../store/signing-repository.ts';
import { assertCsrf, csrfTokenFor } from '../web/csrf.ts';
import { formField } from '../web/form.ts';
import { html } from '../web/html.ts';
import { clientIp } from '../web/client-ip.ts';
import type { PageRenderer } from './page-renderer.ts';
import { parseFinishForm } from './parse-finish-form.ts';
import type { SignerUpload } from '../domain/signing/signer-attachments.ts';
import { parseTabValues } from './parse-tab-values.ts';
import { returnWithEvent } from '../domain/return-url.ts';
import { resolveSigner, type SignerLookup, type SignerRef } from './resolve-signer.ts';
import { ceremonyPage, noticePage, sessionEndPage, unknownLinkPage, type DocumentPages } from './signing-pages.ts';
import { pageTranslator } from './page-language.ts';
import type { AccessGate } from './access-code-gate.ts';
import { managesRecipients } from '../domain/envelope/recipient-kinds.ts';
import { finishManaging, recipientsManagedBy } from '../domain/signing/manage-recipients.ts';
import { hashPassword } from '../security/password-hash.ts';
import { parseRecipientEdits, postedRecipientFields } from './parse-recipient-edits.ts';
import { recipientsPage } from './recipients-page.ts';

export type SigningRouteDeps = {
  readonly ctx: EsignContext;
  readonly envelopes: EnvelopeDeps;
  readonly lookup: SignerLookup;
  readonly signing: SigningRepository;
  /** Decodes a drawn signature in full within the pixel budget (the pdf threads' checkSignatureImage). */
  readonly images: { checkSignatureImage(image: Uint8Array): Promise<unknown>; attachmentToPdf(bytes: Uint8Array): Promise<{ pdf: Uint8Array; pages: number }> };
  readonly pages: PageRenderer;
  /** Told when a finish left the envelope `signed` (the completion worker seals it now). */
  readonly onSigned: () => void;
  /** The sender's name and e-mail (told when a signer declines). */
  readonly senderOf: (userId: string) => Promise<{ name: string; email: string } | undefined>;
  /** Expires an envelope past its expiry date that the scheduler has not reached yet. */
  readonly expiry: NotificationStepDeps;
  /** Signers with an access code or a one-time passcode: nothing shows and nothing is done for them before it is typed. */
  readonly access: AccessGate;
  /** The audit trail: the supplemental documents a signer viewed are its lines (domain/envelope/document-supplement.ts). */
  readonly audit: Pick<AuditEventsRepository, 'list'>;
};

type RefParams = { ref: string };

/** What a manager's refused Finish shows on their page (anything else is a lost race or a fault). */
/** A Finish form's limit: the service's body limit (server.ts), for the files attached in it. */
const FINISH_FORM_LIMIT = 36 * 1024 * 1024;
const MANAGER_REFUSALS: ReadonlySet<string> = new Set(['RECIPIENT_UPDATE_FAILED', 'INVALID_REQUEST_PARAMETER', 'INVALID_REQUEST_BODY', 'INVALID_EMAIL_ADDRESS_FOR_RECIPIENT']);

export function actorOf(request: FastifyRequest): AuditActor {
  const ua = request.headers['user-agent'];
  const ip = clientIp(request.socket.remoteAddress, request.headers['x-forwarded-for']);
  return { ...(ip !== undefined ? { ipAddress: ip } : {}), ...(typeof ua === 'string' && ua !== '' ? { userAgent: ua.slice(0, 500) } : {}) };
}

function sendPage(reply: FastifyReply, body: string, status = 200) {
  // Signing links are bearer secrets: no cache may keep a page that embeds one.
  return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body);
}

function unknownLink(reply: FastifyReply) {
  return sendPage(reply, unknownLinkPage(), 404);
}

/** The friendly page for every state in which nothing is left to sign, in the recipient's language. */
function statePage(access: Exclude<SignerAccess, { kind: 'sign' }>, ref: SignerRef, envelope: Envelope): string {
  const tr = pageTranslator(envelope, ref.recipientId);
  const { t } = tr;
  const download = html`<p><a href="${ref.base}/download">${t('completed.downloadButton')}</a></p>`;
  const completed = envelope.status === 'completed';
  switch (access.kind) {
    case 'not-your-turn':
      return noticePage(tr, t('state.notYourTurnTitle'), t('state.notYourTurn', { subject: envelope.emailSubject }));
    case 'finished':
      if (managesRecipients(access.recipient)) return noticePage(tr, t('page.thankYou'), t('state.managerDone'));
      if (access.recipient.type === 'certifiedDelivery') {
        return noticePage(tr, t('page.thankYou'), completed ? t('state.acknowledgedAll') : t('state.acknowledged'), completed ? download : undefined);
      }
      return noticePage(tr, t('state.thankYouSigning'), completed ? t('state.signedAll') : t('state.signed'), completed ? download : undefined);
    case 'completed':
      return noticePage(tr, t('state.completedTitle'), t('state.completed'), download);
    case 'declined':
      return noticePage(tr, t('state.declinedTitle'), access.byThisSigner ? t('state.declinedByYou') : t('state.declinedByOther'));
    case 'voided':
      // An expired envelope is voided by the service, not the sender.
      if (access.reason === EXPIRED_VOIDED_REASON) return noticePage(tr, t('state.expiredTitle'), t('state.expired'));
      return noticePage(tr, t('state.voidedTitle'), access.reason ? t('state.voidedBecause', { reason: access.reason }) : t('state.voided'));
    case 'unknown-recipient':
      return noticePage(tr, t('state.nothingTitle'), t('state.nothing'));
  }
}

/**
 * Where a Finish or Decline leaves the browser: the integrator's returnUrl with DocuSign's event
 * (embedded), else the done page. A focused view whose framing page listens gets a page that
 * tells it first (sessionEnd), then goes on to the returnUrl.
 */
function endSession(reply: FastifyReply, ref: SignerRef, envelope: Envelope, event: 'signing_complete' | 'decline') {
  if (!ref.returnUrl) return reply.code(303).redirect(`${ref.base}/done`);
  const to = returnWithEvent(ref.returnUrl, event);
  if (ref.frame && ref.frame.messageOrigins.length > 0) return sendPage(reply, sessionEndPage(pageTranslator(envelope, ref.recipientId), ref.frame, event, to));
  return reply.code(303).redirect(to);
}

/** A drawn signature the stamp cannot use is the signer's to redo, so it is a 400 naming why. */
async function assertUsableImage(images: SigningRouteDeps['images'], png: Uint8Array): Promise<void> {
  try {
    await images.checkSignatureImage(png);
  } catch (err) {
    if (err instanceof PdfError && err.code === 'INVALID_SIGNATURE_IMAGE') {
      throw new EsignError('INVALID_REQUEST_PARAMETER', `The drawn signature cannot be used: ${err.detail ?? err.message} Clear the pad and draw it again.`);
    }
    throw err;
  }
}

/**
 * The signing ceremony: the page, its page images, Finish and Decline. Each request
 * re-reads the envelope: what a signer may do depends on routing and on the other signers.
 */
export function registerSigningRoutes(app: FastifyInstance, deps: SigningRouteDeps): void {
  const { envelopes: d, lookup } = deps;

  /** The envelope at `now`, expired first if its time has passed (reminders/load-unexpired.ts). */
  const envelopeAt = (ref: SignerRef, now: Date): Promise<Envelope> => loadUnexpired(d, deps.expiry, ref.accountId, ref.envelopeId, now);

  /**
   * A Finish or Decline that lost a race to a change that closed the envelope (the scheduler
   * expired it, the sender voided it, a co-signer declined): the signer sees that state, not
   * an error. Anything else is rethrown.
   */
  async function lostRace(err: unknown, ref: SignerRef, reply: FastifyReply) {
    if (!(err instanceof EsignError) || err.code !== 'ENVELOPE_INVALID_STATUS') throw err;
    const closed = await getEnvelope(d, ref.accountId, ref.envelopeId);
    const state = signerAccess(closed, ref.recipientId);
    if (state.kind === 'sign') throw err;
    return sendPage(reply, statePage(state, ref, closed), 409);
  }

  const signerOr404 = async (request: FastifyRequest<{ Params: RefParams }>) => resolveSigner(lookup, request, request.params.ref);

  /** Whether this browser passed the recipient's access code (true when there is none). */
  const grantedFor = async (request: FastifyRequest, envelope: Envelope, ref: SignerRef): Promise<boolean> => {
    const recipient = envelope.recipients.find((r) => r.recipientId === ref.recipientId);
    return !recipient || deps.access.granted(request, envelope, recipient);
  };
  /** A request past the page without the access code or passcode: sent back to the page, which asks for it. */
  const accessFirst = (reply: FastifyReply, envelope: Envelope, ref: SignerRef) => {
    const tr = pageTranslator(envelope, ref.recipientId);
    return sendPage(reply, noticePage(tr, tr.t('state.verifyTitle'), tr.t('state.verify')), 403);
  };

  /** The documents to sign, as pages; supplemental documents are offered apart (supplement-strip.ts). */
  async function documentPages(envelope: Envelope, recipient: Recipient): Promise<DocumentPages[]> {
    return Promise.all(visibleDocuments(envelope, recipient).filter((doc) => !isSupplemental(doc)).map(async (doc) => ({
      documentId: doc.documentId,
      name: doc.name,
      sizes: await deps.pages.pageSizes(`${envelope.envelopeId}/${doc.documentId}`, () => originalPdf(envelope, doc.documentId)),
    })));
  }

  /** The document `documentId` if this link's recipient sees it (domain/envelope/document-visibility.ts). */
  function visibleDocumentOf(envelope: Envelope, ref: SignerRef, documentId: string): EnvelopeDocument | undefined {
    const recipient = envelope.recipients.find((r) => r.recipientId === ref.recipientId);
    return recipient ? visibleDocuments(envelope, recipient).find((x) => x.documentId === documentId) : undefined;
  }

  /** The supplemental documents this recipient viewed, as their audit lines say. */
  async function viewedSupplements(envelope: Envelope, recipientId: string): Promise<Set<string>> {
    if (!envelope.documents.some(isSupplemental)) return new Set();
    const events = await deps.audit.list(envelope.envelopeId);
    return new Set(events.filter((e) => e.action === 'Supplement Viewed' && e.recipientId === recipientId && e.documentId !== undefined).map((e) => e.documentId as string));
  }

  async function supplementsFor(envelope: Envelope, recipient: Recipient): Promise<SupplementOnPage[]> {
    const due = acknowledgementsDue(envelope, recipient);
    const viewed = await viewedSupplements(envelope, recipient.recipientId);
    return visibleDocuments(envelope, recipient).filter(isSupplemental).map((document) => {
      const owed = due.find((x) => x.documentId === document.documentId);
      return { document, pageCount: document.pageCount, viewed: viewed.has(document.documentId), ...(owed ? { due: owed } : {}) };
    });
  }

  /** The ceremony page for a signer, with a refused Finish's message when there is one. */
  async function ceremonyFor(request: FastifyRequest, reply: FastifyReply, ref: SignerRef, envelope: Envelope, recipient: Recipient, now: Date, error?: string): Promise<string> {
    const csrf = csrfTokenFor(deps.ctx, request, reply);
    return ceremonyPage(pageTranslator(envelope, recipient.recipientId), { base: ref.base, csrf, envelope, recipient, tabs: signerTabsOf(recipient), documents: await documentPages(envelope, recipient), supplements: await supplementsFor(envelope, recipient), now, ...(error !== undefined ? { error } : {}), ...(ref.frame ? { frame: ref.frame } : {}) });
  }

  /** A signer fetched a supplemental document (its pages or its file): recorded once, as the view signerMustAcknowledge asks for. */
  async function noteSupplementView(request: FastifyRequest, ref: SignerRef, envelope: Envelope, documentId: string): Promise<void> {
    if (signerAccess(envelope, ref.recipientId).kind !== 'sign') return;
    const viewed = (await viewedSupplements(envelope, ref.recipientId)).has(documentId);
    if (viewed) return;
    const now = deps.ctx.now();
    await applySigningChange(d, ref.accountId, ref.envelopeId, (current) => recordSupplementView(current, ref.recipientId, documentId, false, now, actorOf(request)));
  }

  async function originalPdf(envelope: Envelope, documentId: string): Promise<Uint8Array> {
    const pdf = await d.store.documentPdf(envelope.accountId, envelope.envelopeId, documentId);
    if (!pdf) throw new EsignError('DOCUMENT_DOES_NOT_EXIST');
    return pdf;
  }

  app.get<{ Params: RefParams }>('/signing/:ref', async (request, reply) => {
    const ref = await signerOr404(request);
    if (!ref) return unknownLink(reply);
    const now = deps.ctx.now();
    let envelope = await envelopeAt(ref, now);
    let access = signerAccess(envelope, ref.recipientId);
    // The access code comes before anything of the envelope, its view included.
    if (access.kind === 'sign' && !(await deps.access.granted(request, envelope, access.recipient))) return sendPage(reply, await deps.access.page(request, reply, ref, envelope, access.recipient));
    if (access.kind === 'sign') {
      ({ envelope } = await applySigningChange(d, ref.accountId, ref.envelopeId, (current) => recordView(current, ref.recipientId, now, actorOf(request))));
      access = signerAccess(envelope, ref.recipientId);
    }
    if (access.kind !== 'sign') return sendPage(reply, statePage(access, ref, envelope));
    if (managesRecipients(access.recipient)) {
      const csrf = csrfTokenFor(deps.ctx, request, reply);
      return sendPage(reply, recipientsPage(pageTranslator(envelope, ref.recipientId), { base: ref.base, csrf, envelope, manager: access.recipient, managed: recipientsManagedBy(envelope, access.recipient), documents: await documentPages(envelope, access.recipient) }));
    }
    return sendPage(reply, await ceremonyFor(request, reply, ref, envelope, access.recipient, now));
  });

  app.get<{ Params: RefParams & { documentId: string; page: string } }>('/signing/:ref/documents/:documentId/pages/:page', async (request, reply) => {
    const ref = await signerOr404(request);
    if (!ref) return unknownLink(reply);
    const envelope = await getEnvelope(d, ref.accountId, ref.envelopeId);
    if (!(await grantedFor(request, envelope, ref))) return accessFirst(reply, envelope, ref);
    // Only a document this recipient sees: another's id, guessed or read elsewhere, is not found.
    const doc = visibleDocumentOf(envelope, ref, request.params.documentId);
    const page = Number(request.params.page);
    if (!doc || !Number.isInteger(page) || page < 1 || page > doc.pageCount) throw new EsignError('RESOURCE_NOT_FOUND');
    const jpeg = await deps.pages.jpeg(`${envelope.envelopeId}/${doc.documentId}`, page, () => originalPdf(envelope, doc.documentId));
    // A supplement's pages load only when its dialog opens (supplement-strip.ts): that is the view.
    if (isSupplemental(doc)) await noteSupplementView(request, ref, envelope, doc.documentId);
    return reply.type('image/jpeg').header('cache-control', 'private, max-age=600').send(jpeg);
  });

  /** A supplemental document's file (display download, or Download in the dialog); fetching it is viewing it. */
  app.get<{ Params: RefParams & { documentId: string } }>('/signing/:ref/supplements/:documentId', async (request, reply) => {
    const ref = await signerOr404(request);
    if (!ref) return unknownLink(reply);
    const envelope = await getEnvelope(d, ref.accountId, ref.envelopeId);
    if (!(await grantedFor(request, envelope, ref))) return accessFirst(reply, envelope, ref);
    const doc = visibleDocumentOf(envelope, ref, request.params.documentId);
    if (!doc || !isSupplemental(doc)) throw new EsignError('RESOURCE_NOT_FOUND');
    const pdf = await originalPdf(envelope, doc.documentId);
    await noteSupplementView(request, ref, envelope, doc.documentId);
    const filename = `${doc.name.replace(/[^\w .-]+/g, '_').slice(0, 100) || 'document'}${/\.pdf$/i.test(doc.name) ? '' : '.pdf'}`;
    return reply.type('application/pdf').header('cache-control', 'no-store').header('content-disposition', `attachment; filename="${filename}"`).send(Buffer.from(pdf));
  });

  /**
   * Each attached file made a PDF on the pdf threads (attachmentToPdf: its kind told by its
   * bytes); a file that is no PDF, PNG or JPEG is DocuSign's INVALID_TAB_VALUE, shown on the page.
   */
  async function attachedPdfs(files: ReadonlyMap<string, Uint8Array>): Promise<SignerUpload[]> {
    const uploads: SignerUpload[] = [];
    for (const [tabId, bytes] of files) {
      try {
        const { pdf, pages } = await deps.images.attachmentToPdf(bytes);
        uploads.push({ tabId, pdf, pageCount: pages, sha256: d.hashBytes(pdf) });
      } catch (err) {
        if (!(err instanceof PdfError)) throw err;
        throw new EsignError('INVALID_TAB_VALUE', `tab ${tabId} (attachment): ${err.detail ?? err.message}`, { cause: err });
      }
    }
    return uploads;
  }

  app.post<{ Params: RefParams }>('/signing/:ref/finish', {
    // Attached files come in the form (each up to MAX_ATTACHMENT_BYTES, base64): the body may be
    // large, so only a live link may send one, decided before a byte of it is read.
    config: { formLimit: FINISH_FORM_LIMIT },
    onRequest: async (request, reply) => {
      if (!(await signerOr404(request))) return unknownLink(reply);
      return undefined;
    },
  }, async (request, reply) => {
    assertCsrf(request);
    const ref = await signerOr404(request);
    if (!ref) return unknownLink(reply);
    const now = deps.ctx.now();
    const before = await envelopeAt(ref, now);
    if (!(await grantedFor(request, before, ref))) return accessFirst(reply, before, ref);
    const access = signerAccess(before, ref.recipientId);
    if (access.kind !== 'unknown-recipient' && managesRecipients(access.recipient)) return finishManager(request, reply, ref, before, access, now);
    if (access.kind === 'sign') {
      const tabs = signerTabsOf(access.recipient);
      const signatureTabs = tabs.filter((t) => t.tab.type === 'signHere' || t.tab.type === 'initialHere');
      const attachmentTabIds = tabs.filter((t) => t.tab.type === 'signerAttachment').map((t) => t.tabId);
      const form = parseFinishForm(request.body, { requiredTabIds: signatureTabs.filter((t) => t.tab.required).map((t) => t.tabId), allTabIds: signatureTabs.map((t) => t.tabId), attachmentTabIds });
      const posted = parseTabValues(request.body);
      // The supplements viewed (audit lines, read before the change: views are only ever added) and accepted (checkboxes of the form).
      const acknowledged = {
        viewed: await viewedSupplements(before, ref.recipientId),
        accepted: new Set(before.documents.filter((doc) => isSupplemental(doc) && formField(request.body, `accept-${doc.documentId}`) === 'true').map((doc) => doc.documentId)),
      };
      // Decoded now, by the decoder the stamp uses: an image that cannot be stamped is refused
      // here, while the signer can draw again, and never reaches the completion queue.
      if (form.signature?.kind === 'image') await assertUsableImage(deps.images, form.signature.png);
      const signature: AdoptedSignature | undefined = form.signature && {
        kind: form.signature.kind,
        ...(form.signature.kind === 'typed' ? { typedText: form.signature.text } : { image: form.signature.png }),
        signedTabIds: form.signedTabIds,
        adoptedAt: now,
      };
      let finished: Envelope;
      let uploads: SignerUpload[];
      try {
        uploads = await attachedPdfs(form.attachments);
      } catch (err) {
        if (!(err instanceof EsignError)) throw err;
        return sendPage(reply, await ceremonyFor(request, reply, ref, before, access.recipient, now, `${err.code}: ${err.message}`), err.status);
      }
      try {
        // The signature and the tab values are stored in the transaction of the Finish: once the
        // envelope is `signed` completion finds every signature and value, and a Finish that
        // loses a race (an expiry, a void) or breaks a tab's rule leaves nothing behind.
        ({ envelope: finished } = await applySigningChange(d, ref.accountId, ref.envelopeId, (current) => {
          const change = finishSigning(d, current, ref.recipientId, now, actorOf(request), posted, uploads, acknowledged);
          return change && (signature ? { ...change, adoptedSignatures: [{ recipientId: ref.recipientId, signature }] } : change);
        }));
      } catch (err) {
        // The page checks every rule before Finish is enabled; a refusal here means the page was
        // bypassed or the envelope changed meanwhile: the signer sees why, on the page, and can retry.
        if (err instanceof EsignError && (err.code === 'INVALID_TAB_VALUE' || err.code === 'INVALID_TAB_OPERATION' || err.code === 'SUPPLEMENT_NOT_ACKNOWLEDGED')) {
          return sendPage(reply, await ceremonyFor(request, reply, ref, before, access.recipient, now, `${err.code}: ${err.message}`), err.status);
        }
        return lostRace(err, ref, reply);
      }
      if (finished.status === 'signed') deps.onSigned();
    } else if (access.kind !== 'finished') {
      return sendPage(reply, statePage(access, ref, before), 409);
    }
    // A second Finish (double click, back button) lands here too: idempotent.
    return endSession(reply, ref, before, 'signing_complete');
  });

  /**
   * An agent's, editor's or intermediary's Finish (domain/signing/manage-recipients.ts): their
   * changes and their completion in one change, or nothing. A refused change shows the page
   * again with why; a link whose turn has passed (finished, or anything but their turn) changes
   * nothing and says so with a 409, never a silent success.
   */
  async function finishManager(request: FastifyRequest, reply: FastifyReply, ref: SignerRef, before: Envelope, access: Exclude<SignerAccess, { kind: 'unknown-recipient' }>, now: Date) {
    if (access.kind !== 'sign') return sendPage(reply, statePage(access, ref, before), 409);
    let finished: Envelope;
    try {
      // An editor's new access codes, hashed before the change (the store keeps only hashes).
      // The edits are judged first, with a stand-in hash: each hash costs ~0.2 s of scrypt on the
      // shared thread pool, and a refused form (ids this agent may not change, a hundred of
      // them) must cost nothing, however often it is posted.
      const parsed = parseRecipientEdits(request.body);
      finishManaging(d, before, ref.recipientId, parsed.map((e) => (e.accessCode ? { ...e, accessCodeHash: 'judged before hashing' } : e)), now, actorOf(request));
      const edits = await Promise.all(parsed.map(async (e) => (e.accessCode ? { ...e, accessCodeHash: await hashPassword(e.accessCode, deps.ctx.passwordHashCost) } : e)));
      ({ envelope: finished } = await applySigningChange(d, ref.accountId, ref.envelopeId, (current) => finishManaging(d, current, ref.recipientId, edits, now, actorOf(request))));
    } catch (err) {
      if (err instanceof EsignError && MANAGER_REFUSALS.has(err.code)) {
        const csrf = csrfTokenFor(deps.ctx, request, reply);
        const page = recipientsPage(pageTranslator(before, ref.recipientId), { base: ref.base, csrf, envelope: before, manager: access.recipient, managed: recipientsManagedBy(before, access.recipient), documents: await documentPages(before, access.recipient), error: `${err.code}: ${err.message}`, posted: postedRecipientFields(request.body) });
        return sendPage(reply, page, err.status);
      }
      return lostRace(err, ref, reply);
    }
    if (finished.status === 'signed') deps.onSigned();
    return endSession(reply, ref, before, 'signing_complete');
  }

  app.post<{ Params: RefParams }>('/signing/:ref/decline', async (request, reply) => {
    assertCsrf(request);
    const ref = await signerOr404(request);
    if (!ref) return unknownLink(reply);
    const before = await envelopeAt(ref, deps.ctx.now());
    if (!(await grantedFor(request, before, ref))) return accessFirst(reply, before, ref);
    const access = signerAccess(before, ref.recipientId);
    if (access.kind === 'sign') {
      const reason = formField(request.body, 'reason') ?? '';
      const sender = await deps.senderOf(before.senderUserId);
      try {
        await applySigningChange(d, ref.accountId, ref.envelopeId, (current) => {
          const change = declineSigning(current, ref.recipientId, reason, deps.ctx.now(), actorOf(request));
          const signer = change?.envelope.recipients.find((r) => r.recipientId === ref.recipientId);
          if (!change || !sender || !signer) return change;
          // The sender hears of it in the same transaction (DocuSign mails the sender on a decline).
          return { ...change, mails: [envelopeDeclinedMail({ envelopeId: current.envelopeId, to: sender, emailSubject: current.emailSubject, signer: { name: signer.name, email: signer.email }, reason: signer.declinedReason ?? reason, language: recipientLanguage(current) })] };
        });
      } catch (err) {
        return lostRace(err, ref, reply);
      }
    } else if (!(access.kind === 'declined' && access.byThisSigner)) {
      return sendPage(reply, statePage(access, ref, before), 409);
    }
    return endSession(reply, ref, before, 'decline');
  });

  app.get<{ Params: RefParams }>('/signing/:ref/done', async (request, reply) => {
    const ref = await signerOr404(request);
    if (!ref) return unknownLink(reply);
    const envelope = await getEnvelope(d, ref.accountId, ref.envelopeId);
    const access = signerAccess(envelope, ref.recipientId);
    if (access.kind === 'sign') return reply.code(303).redirect(ref.base);
    return sendPage(reply, statePage(access, ref, envelope));
  });

  /** The sealed combined PDF, for any recipient of a completed envelope (the completion mail links here). */
  app.get<{ Params: RefParams }>('/signing/:ref/download', async (request, reply) => {
    const ref = await signerOr404(request);
    if (!ref) return unknownLink(reply);
    const envelope = await getEnvelope(d, ref.accountId, ref.envelopeId);
    if (!(await grantedFor(request, envelope, ref))) return accessFirst(reply, envelope, ref);
    const result = envelope.status === 'completed' ? await deps.signing.result(envelope.envelopeId) : undefined;
    const recipient = envelope.recipients.find((r) => r.recipientId === ref.recipientId);
    if (!result || !recipient) {
      const tr = pageTranslator(envelope, ref.recipientId);
      return sendPage(reply, noticePage(tr, tr.t('state.notCompletedTitle'), tr.t('state.notCompleted')), 409);
    }
    // Their copy: the sealed combined PDF, or only their documents when some are hidden from them.
    const copy = await recipientCopy(envelope, recipient, () => Promise.resolve(new Uint8Array(result.combined_with_certificate)), (documentId) => deps.signing.signedDocument(envelope.envelopeId, documentId));
    return reply.type('application/pdf').header('cache-control', 'no-store').header('content-disposition', `attachment; filename="envelope-${envelope.envelopeId}.pdf"`).send(Buffer.from(copy));
  });
}
