// Brings @fastify/cookie's request.cookies / reply.setCookie types into scope.
import { recipientLanguage } from '../domain/language/languages.ts';
import type {} from '@fastify/cookie';
import { randomInt } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EsignContext } from '../context.ts';
import { getEnvelope } from '../domain/envelope/get-envelope.ts';
import type { EnvelopeDeps } from '../domain/envelope/ports.ts';
import { applySigningChange } from '../domain/signing/apply-signing-change.ts';
import type { AuditActor } from '../domain/signing/audit-event.ts';
import { PASSCODE_DIGITS, PASSCODE_TTL_MS, passcodeAttempt, passcodeLocked, passcodePending, passcodeSent, type PasscodeChannel } from '../domain/signing/passcode.ts';
import { EsignError } from '../errors.ts';
import { passcodeMail } from '../mail/templates/passcode-mail.ts';
import type { TextSender } from '../mail/text-sender.ts';
import { hashPassword, verifyPassword } from '../security/password-hash.ts';
import { newSecretToken, sha256Hex } from '../security/secret-token.ts';
import type { AccessGrantsRepository } from '../store/access-grants-repository.ts';
import { assertCsrf } from '../web/csrf.ts';
import { formField } from '../web/form.ts';
import { cookieSecurity } from '../web/framing.ts';
import { PASSCODE_COOKIE, type AccessGate } from './access-code-gate.ts';
import { passcodeLockedPage } from './passcode-page.ts';
import { resolveSigner, type SignerLookup } from './resolve-signer.ts';
import { unknownLinkPage } from './signing-pages.ts';
import { pageTranslator } from './page-language.ts';

export type PasscodeRouteDeps = {
  readonly ctx: EsignContext;
  readonly envelopes: EnvelopeDeps;
  readonly lookup: SignerLookup;
  readonly grants: AccessGrantsRepository;
  readonly gate: AccessGate;
  /** Where text and voice codes go (the development outbox unless a provider is wired). */
  readonly texts: TextSender;
  /** How long a right passcode lets the browser in. */
  readonly grantTtlMs: number;
  readonly actorOf: (request: FastifyRequest) => AuditActor;
  /** Told when a text could not be sent (the signer sees a retry message). */
  readonly onSendError: (err: unknown, envelopeId: string) => void;
};

const CHANNELS: readonly PasscodeChannel[] = ['sms', 'voice', 'email'];

function sendPage(reply: FastifyReply, body: string, status: number) {
  return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body);
}

/** A fresh code: uniformly random digits from the CSPRNG. */
function newPasscode(): string {
  return String(randomInt(0, 10 ** PASSCODE_DIGITS)).padStart(PASSCODE_DIGITS, '0');
}

/**
 * The one-time passcode step of the signing page (domain/signing/passcode.ts):
 * POST /signing/{ref}/passcode/send sends a new code the way the signer picked among those the
 * sender allowed; POST /signing/{ref}/passcode checks a typed one. Codes are stored only as
 * scrypt hashes, compared in constant time, good once and for PASSCODE_TTL_MS; every send and
 * attempt is a versioned change of the envelope, audited, so counts and the lockout hold
 * across instances. The access code, when there is one, comes first.
 */
export function registerPasscodeRoutes(app: FastifyInstance, deps: PasscodeRouteDeps): void {
  /** The signer, their envelope and recipient, once the link and the access code step are good; else the answer. */
  async function signerAt(request: FastifyRequest<{ Params: { ref: string } }>, reply: FastifyReply) {
    assertCsrf(request);
    const ref = await resolveSigner(deps.lookup, request, request.params.ref);
    if (!ref) return { answer: sendPage(reply, unknownLinkPage(), 404) };
    const envelope = await getEnvelope(deps.envelopes, ref.accountId, ref.envelopeId);
    const recipient = envelope.recipients.find((r) => r.recipientId === ref.recipientId);
    if (!recipient?.passcode) return { answer: reply.code(303).redirect(ref.base) };
    if (!(await deps.gate.accessCodeGranted(request, envelope, recipient))) return { answer: reply.code(303).redirect(ref.base) };
    if (passcodeLocked(recipient)) return { answer: sendPage(reply, passcodeLockedPage(pageTranslator(envelope, recipient.recipientId)), 403) };
    return { ref, envelope, recipient: { ...recipient, passcode: recipient.passcode } };
  }

  app.post<{ Params: { ref: string } }>('/signing/:ref/passcode/send', async (request, reply) => {
    const at = await signerAt(request, reply);
    if ('answer' in at) return at.answer;
    const { ref, recipient } = at;
    const index = Number(formField(request.body, 'destination') ?? '');
    const channel = CHANNELS.find((c) => c === formField(request.body, 'channel'));
    const destination = Number.isInteger(index) ? recipient.passcode.destinations[index] : undefined;
    if (!channel || destination === undefined) throw new EsignError('INVALID_REQUEST_PARAMETER', 'Pick one of the ways offered on the page.');
    const code = newPasscode();
    const hash = await hashPassword(code, deps.ctx.passwordHashCost);
    const now = deps.ctx.now();
    let sent;
    try {
      ({ envelope: sent } = await applySigningChange(deps.envelopes, ref.accountId, ref.envelopeId, (current) => {
        const change = passcodeSent(current, ref.recipientId, { index, channel, hash }, now, deps.actorOf(request));
        if (channel !== 'email') return change;
        // E-mailed codes go through the mail outbox in the same transaction.
        const mail = passcodeMail({ envelopeId: current.envelopeId, to: { email: destination, name: recipient.name }, emailSubject: current.emailSubject, code, minutes: PASSCODE_TTL_MS / 60_000, language: recipientLanguage(current, recipient) });
        return { ...change, mails: [mail] };
      }));
    } catch (err) {
      if (err instanceof EsignError && err.code === 'RECIPIENT_AUTHENTICATION_LOCKED') return sendPage(reply, passcodeLockedPage(pageTranslator(at.envelope, recipient.recipientId)), 403);
      throw err;
    }
    const after = sent.recipients.find((r) => r.recipientId === ref.recipientId) ?? recipient;
    if (channel !== 'email') {
      try {
        await deps.texts.send({ channel, to: destination, body: `Your Signet passcode is ${code}. It works once, for ${PASSCODE_TTL_MS / 60_000} minutes. Do not share it.`, envelopeId: ref.envelopeId });
      } catch (err) {
        deps.onSendError(err, ref.envelopeId);
        return sendPage(reply, await deps.gate.page(request, reply, ref, sent, after, { passcode: { kind: 'send-failed' } }), 502);
      }
    }
    return sendPage(reply, await deps.gate.page(request, reply, ref, sent, after, { passcode: { kind: 'sent' } }), 200);
  });

  app.post<{ Params: { ref: string } }>('/signing/:ref/passcode', async (request, reply) => {
    const at = await signerAt(request, reply);
    if ('answer' in at) return at.answer;
    const { ref, envelope, recipient } = at;
    const now = deps.ctx.now();
    const pending = recipient.passcode.pending;
    // No code waiting (never sent, used, expired): not counted, nothing to guess against.
    if (!pending || !passcodePending(recipient, now)) return sendPage(reply, await deps.gate.page(request, reply, ref, envelope, recipient, { passcode: { kind: 'stale' } }), 400);
    const typed = (formField(request.body, 'passcode') ?? '').replace(/\s+/g, '').slice(0, 20);
    const matches = new RegExp(`^\\d{${PASSCODE_DIGITS}}$`).test(typed) && (await verifyPassword(typed, pending.hash));
    let right = false;
    const { envelope: after } = await applySigningChange(deps.envelopes, ref.accountId, ref.envelopeId, (current) => {
      // Right only against the code still pending: a code used meanwhile (another tab), or
      // replaced by a newer one, is not good twice.
      const still = current.recipients.find((r) => r.recipientId === ref.recipientId)?.passcode?.pending;
      right = matches && still?.hash === pending.hash && passcodePending(current.recipients.find((r) => r.recipientId === ref.recipientId) ?? recipient, now);
      return passcodeAttempt(current, ref.recipientId, right, now, deps.actorOf(request));
    });
    const counted = after.recipients.find((r) => r.recipientId === ref.recipientId) ?? recipient;
    if (!right) return sendPage(reply, await deps.gate.page(request, reply, ref, after, counted, { passcode: { kind: 'wrong' } }), passcodeLocked(counted) ? 403 : 400);
    const grant = newSecretToken();
    await deps.grants.create({ tokenHash: sha256Hex(grant), envelopeId: ref.envelopeId, recipientId: ref.recipientId, createdAt: now, expiresAt: new Date(now.getTime() + deps.grantTtlMs), method: 'passcode' });
    reply.setCookie(PASSCODE_COOKIE, grant, { path: '/signing', httpOnly: true, ...cookieSecurity(deps.ctx, request), maxAge: Math.floor(deps.grantTtlMs / 1000) });
    return reply.code(303).header('cache-control', 'no-store').redirect(ref.base);
  });
}
