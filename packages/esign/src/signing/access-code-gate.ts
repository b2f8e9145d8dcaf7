// Brings @fastify/cookie's request.cookies / reply.setCookie types into scope.
import type {} from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EsignContext } from '../context.ts';
import type { Envelope, Recipient } from '../domain/envelope/envelope.ts';
import { getEnvelope } from '../domain/envelope/get-envelope.ts';
import type { EnvelopeDeps } from '../domain/envelope/ports.ts';
import { accessCodeAttempt, accessCodeLocked, needsAccessCode } from '../domain/signing/access-code.ts';
import { MAX_PASSCODE_SENDS, needsPasscode, passcodeLocked, passcodePending } from '../domain/signing/passcode.ts';
import { passcodeLockedPage, passcodePage, type PasscodeNote } from './passcode-page.ts';
import { applySigningChange } from '../domain/signing/apply-signing-change.ts';
import type { AuditActor } from '../domain/signing/audit-event.ts';
import { verifyPassword } from '../security/password-hash.ts';
import { newSecretToken, sha256Hex } from '../security/secret-token.ts';
import type { AccessGrantsRepository, GrantMethod } from '../store/access-grants-repository.ts';
import { assertCsrf, csrfTokenFor } from '../web/csrf.ts';
import { formField } from '../web/form.ts';
import { cookieSecurity } from '../web/framing.ts';
import { accessCodeLockedPage, accessCodePage } from './access-code-page.ts';
import { resolveSigner, type SignerLookup, type SignerRef } from './resolve-signer.ts';
import { unknownLinkPage } from './signing-pages.ts';
import { pageTranslator } from './page-language.ts';

/** The cookie a right access code earns: scoped to /signing, HttpOnly, one per browser. */
export const ACCESS_COOKIE = 'signet_access';
/** The cookie a right one-time passcode earns (signing/passcode-routes.ts). */
export const PASSCODE_COOKIE = 'signet_passcode';
const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

/** What the page says after an attempt: a wrong access code, or a passcode step's note. */
export type GateNote = { readonly accessCodeWrong?: boolean; readonly passcode?: PasscodeNote };

/**
 * What the signing pages ask before showing a recipient's documents or acting for them: the
 * access code first, then the one-time passcode, each earning this browser a grant.
 */
export type AccessGate = {
  /** True when the recipient asks for neither check, or this browser passed every one (and none is locked). */
  granted(request: FastifyRequest, envelope: Envelope, recipient: Recipient): Promise<boolean>;
  /** True when the recipient has no access code or this browser typed it: the passcode step comes after. */
  accessCodeGranted(request: FastifyRequest, envelope: Envelope, recipient: Recipient): Promise<boolean>;
  /** The step to answer instead: the access code form, the passcode step, or a lockout page. */
  page(request: FastifyRequest, reply: FastifyReply, ref: SignerRef, envelope: Envelope, recipient: Recipient, note?: GateNote): Promise<string>;
};

export function buildAccessGate(ctx: EsignContext, grants: AccessGrantsRepository): AccessGate {
  const hasGrant = (request: FastifyRequest, cookieName: string, envelope: Envelope, recipient: Recipient, method: GrantMethod): Promise<boolean> | boolean => {
    const cookie = request.cookies[cookieName];
    return cookie !== undefined && TOKEN.test(cookie) && grants.grants(sha256Hex(cookie), envelope.envelopeId, recipient.recipientId, ctx.now(), method);
  };
  const accessCodeGranted = async (request: FastifyRequest, envelope: Envelope, recipient: Recipient) => {
    if (!needsAccessCode(recipient)) return true;
    return !accessCodeLocked(recipient) && hasGrant(request, ACCESS_COOKIE, envelope, recipient, 'access_code');
  };
  const passcodeGranted = async (request: FastifyRequest, envelope: Envelope, recipient: Recipient) => {
    if (!needsPasscode(recipient)) return true;
    return !passcodeLocked(recipient) && hasGrant(request, PASSCODE_COOKIE, envelope, recipient, 'passcode');
  };
  return {
    accessCodeGranted,
    async granted(request, envelope, recipient) {
      return (await accessCodeGranted(request, envelope, recipient)) && passcodeGranted(request, envelope, recipient);
    },
    async page(request, reply, ref, envelope, recipient, note = {}) {
      const tr = pageTranslator(envelope, recipient.recipientId);
      if (!(await accessCodeGranted(request, envelope, recipient))) {
        if (accessCodeLocked(recipient)) return accessCodeLockedPage(tr);
        return accessCodePage(tr, { base: ref.base, csrf: csrfTokenFor(ctx, request, reply), subject: envelope.emailSubject, failures: recipient.accessCode?.failures ?? 0, wrong: note.accessCodeWrong ?? false });
      }
      const passcode = recipient.passcode;
      if (!passcode || passcodeLocked(recipient)) return passcodeLockedPage(tr);
      const codeWaiting = passcodePending(recipient, ctx.now());
      if (!codeWaiting && passcode.sends >= MAX_PASSCODE_SENDS) return passcodeLockedPage(tr);
      return passcodePage(tr, { base: ref.base, csrf: csrfTokenFor(ctx, request, reply), subject: envelope.emailSubject, passcode, codeWaiting, note: note.passcode });
    },
  };
}

export type AccessCodeRouteDeps = {
  readonly ctx: EsignContext;
  readonly envelopes: EnvelopeDeps;
  readonly lookup: SignerLookup;
  readonly grants: AccessGrantsRepository;
  readonly gate: AccessGate;
  /** How long a right code lets the browser in. */
  readonly grantTtlMs: number;
  readonly actorOf: (request: FastifyRequest) => AuditActor;
};

function sendPage(reply: FastifyReply, body: string, status: number) {
  return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body);
}

/**
 * POST /signing/{ref}/access-code: the typed code, checked against the hash in constant time
 * (scrypt). Every attempt is counted in the envelope's versioned change (so two tabs typing at
 * once are both counted) and audited; the lockout holds across instances and restarts.
 */
export function registerAccessCodeRoutes(app: FastifyInstance, deps: AccessCodeRouteDeps): void {
  app.post<{ Params: { ref: string } }>('/signing/:ref/access-code', async (request, reply) => {
    assertCsrf(request);
    const ref = await resolveSigner(deps.lookup, request, request.params.ref);
    if (!ref) return sendPage(reply, unknownLinkPage(), 404);
    const envelope = await getEnvelope(deps.envelopes, ref.accountId, ref.envelopeId);
    const recipient = envelope.recipients.find((r) => r.recipientId === ref.recipientId);
    if (!recipient?.accessCode) return reply.code(303).redirect(ref.base);
    if (accessCodeLocked(recipient)) return sendPage(reply, accessCodeLockedPage(pageTranslator(envelope, recipient.recipientId)), 403);
    const typed = (formField(request.body, 'accessCode') ?? '').trim().slice(0, 50);
    const right = typed !== '' && (await verifyPassword(typed, recipient.accessCode.hash));
    const now = deps.ctx.now();
    const { envelope: after } = await applySigningChange(deps.envelopes, ref.accountId, ref.envelopeId, (current) => accessCodeAttempt(current, ref.recipientId, right, now, deps.actorOf(request)));
    const counted = after.recipients.find((r) => r.recipientId === ref.recipientId) ?? recipient;
    if (!right) return sendPage(reply, await deps.gate.page(request, reply, ref, after, counted, { accessCodeWrong: true }), accessCodeLocked(counted) ? 403 : 400);
    const grant = newSecretToken();
    await deps.grants.create({ tokenHash: sha256Hex(grant), envelopeId: ref.envelopeId, recipientId: ref.recipientId, createdAt: now, expiresAt: new Date(now.getTime() + deps.grantTtlMs), method: 'access_code' });
    reply.setCookie(ACCESS_COOKIE, grant, { path: '/signing', httpOnly: true, ...cookieSecurity(deps.ctx, request), maxAge: Math.floor(deps.grantTtlMs / 1000) });
    return reply.code(303).header('cache-control', 'no-store').redirect(ref.base);
  });
}
