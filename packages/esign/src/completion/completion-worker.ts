import { recipientLanguage } from '../domain/language/languages.ts';
import { mailBrandOf } from '../mail/templates/mail-brand.ts';
import type { SealIdentity } from '@signet/pdf';
import { completionProblemMessage, nextCompletionAttempt, type CompletionProblem } from '../domain/signing/completion-retry.ts';
import { envelopeCompletionFailedMail } from '../mail/templates/envelope-completion-failed-mail.ts';
import type { CompletionFailuresRepository } from '../store/completion-failures-repository.ts';
import { PollingLoop } from '../background/polling-loop.ts';
import type { EnvelopeDeps, SigningTokenRecord } from '../domain/envelope/ports.ts';
import { newSigningLink } from '../domain/envelope/signing-links.ts';
import { isEmbedded } from '../domain/envelope/recipient-kinds.ts';
import { envelopeWrite } from '../domain/envelope/envelope-write.ts';
import { markCompleted } from '../domain/signing/signing-changes.ts';
import { signingUrl } from '../mail/compose-notification.ts';
import type { MailMessage } from '../domain/mail/mail-message.ts';
import { envelopeCompletedMail } from '../mail/templates/envelope-completed-mail.ts';
import type { AuditEventsRepository } from '../store/audit-events-repository.ts';
import type { SigningRepository } from '../store/signing-repository.ts';
import { buildCompletedPdfs, type DrawValuesFn, type StampFn } from './build-completed-pdfs.ts';
import { recipientCopy } from '../domain/signing/recipient-copy.ts';
import type { EvidenceRepository, SealedFiles } from '../store/evidence-repository.ts';
import { nextEvidenceAttempt } from '../domain/signing/evidence-retry.ts';
import type { EvidenceUpgrader } from './evidence-upgrader.ts';

export type CompletionWorkerOptions = {
  readonly envelopes: Pick<EnvelopeDeps, 'store' | 'clock' | 'random' | 'hashSecret'>;
  readonly signing: SigningRepository;
  readonly audit: AuditEventsRepository;
  /** Failed completions and their backoff: a failing envelope leaves the queue until its next try. */
  readonly failures: CompletionFailuresRepository;
  /** Stamps signatures into a PDF; production passes the pdf threads' (image decoding off the event loop). */
  readonly stamp?: StampFn;
  /** Draws tab values into a PDF; production passes the pdf threads' (pdf-lib re-saves off the event loop). */
  readonly drawValues?: DrawValuesFn;
  readonly publicUrl: string;
  /** The service's seal (configurable P12; a generated development one by default). */
  readonly seal: () => Promise<SealIdentity>;
  /** The sender's name and e-mail for the certificate. */
  readonly senderOf?: (userId: string) => Promise<{ name: string; email: string } | undefined>;
  readonly pollIntervalMs?: number;
  readonly onError?: (err: unknown, envelopeId?: string) => void;
  /**
   * The sealed files' hashes (for /verify) and their evidence upgrade: with a TSA the seal is
   * timestamped before the files are stored; if that fails the envelope completes at B-B and
   * the EvidenceWorker upgrades it later.
   */
  readonly evidence?: { readonly repository: EvidenceRepository; readonly upgrader: EvidenceUpgrader };
  /** A completion stored below the configured level (the TSA failed); the upgrade is queued. */
  readonly onEvidenceDeferred?: (envelopeId: string, err: unknown) => void;
};

/** The path under a signing link that downloads the completed PDF (signing/ serves it). */
export const DOWNLOAD_SUFFIX = '/download';

/** A file name for the combined PDF: the subject, ASCII-safe. */
function combinedFileName(subject: string): string {
  return `${subject.replace(/[^A-Za-z0-9 ._-]+/g, '_').trim().slice(0, 80) || 'envelope'}.pdf`;
}

/**
 * Turns `signed` envelopes into `completed` ones. The `signed` status is itself the queue: the
 * signer's finish wrote it in the same transaction as the signature's audit line, so a crash
 * before completion loses nothing; the next pass (here or on another instance) picks the
 * envelope up again. Work is idempotent: results are stored first-writer-wins and the status
 * change is guarded by the envelope's version, so two instances racing produce one completion
 * and one set of mails.
 */
export class CompletionWorker {
  readonly #o: CompletionWorkerOptions;
  readonly #loop: PollingLoop;

  constructor(options: CompletionWorkerOptions) {
    this.#o = options;
    this.#loop = new PollingLoop(async () => {
      await this.runOnce();
      return false;
    }, { intervalMs: options.pollIntervalMs ?? 2_000, onError: (err) => options.onError?.(err) });
  }

  /** Completes every envelope waiting; returns the ids this pass completed. */
  async runOnce(): Promise<string[]> {
    const done: string[] = [];
    for (const { envelopeId, accountId } of await this.#o.signing.envelopesAwaitingCompletion(10, this.#o.envelopes.clock())) {
      try {
        if (await this.complete(accountId, envelopeId)) done.push(envelopeId);
      } catch (err) {
        this.#o.onError?.(err, envelopeId);
        await this.#recordFailure(accountId, envelopeId, err).catch((recordErr: unknown) => this.#o.onError?.(recordErr, envelopeId));
      }
    }
    return done;
  }

  /**
   * Takes a failed envelope out of the queue until its next try (or for good, after the last),
   * with an audit line for the sender's trail and, on giving up, a mail to the sender.
   */
  async #recordFailure(accountId: string, envelopeId: string, err: unknown): Promise<CompletionProblem> {
    const now = this.#o.envelopes.clock();
    const envelope = await this.#o.envelopes.store.find(accountId, envelopeId);
    const sender = envelope ? await this.#o.senderOf?.(envelope.senderUserId) : undefined;
    const error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    return this.#o.failures.recordFailure(envelopeId, error, now, (attempts) => {
      const nextAttemptAt = nextCompletionAttempt(attempts, now);
      const message = completionProblemMessage({ envelopeId, attempts, lastError: error, lastFailedAt: now, ...(nextAttemptAt ? { nextAttemptAt } : { failedAt: now }) });
      return {
        nextAttemptAt,
        audit: { envelopeId, at: now, action: 'Completion Failed', envelopeStatus: 'signed', source: 'system', message },
        mails: !nextAttemptAt && envelope && sender ? [envelopeCompletionFailedMail({ envelopeId, to: sender, emailSubject: envelope.emailSubject, attempts })] : [],
      };
    });
  }

  /** Completes one envelope if it is `signed`; false when there was nothing to do. */
  async complete(accountId: string, envelopeId: string): Promise<boolean> {
    const { store, clock, random, hashSecret } = this.#o.envelopes;
    const envelope = await store.find(accountId, envelopeId);
    if (envelope?.status !== 'signed') return false;
    const now = clock();
    let result = await this.#o.signing.result(envelopeId);
    if (!result) {
      const pdfs = new Map<string, Uint8Array>();
      for (const d of envelope.documents) {
        const pdf = await store.documentPdf(accountId, envelopeId, d.documentId);
        if (!pdf) throw new TypeError(`document ${d.documentId} of ${envelopeId} has no PDF`);
        pdfs.set(d.documentId, pdf);
      }
      const built = await buildCompletedPdfs({
        envelope,
        pdfs,
        signatures: await this.#o.signing.signatures(envelopeId),
        audit: await this.#o.audit.list(envelopeId),
        sender: await this.#o.senderOf?.(envelope.senderUserId),
        seal: await this.#o.seal(),
        now,
        ...(this.#o.stamp ? { stamp: this.#o.stamp } : {}),
        ...(this.#o.drawValues ? { drawValues: this.#o.drawValues } : {}),
      });
      await this.#o.signing.saveResult(envelopeId, await this.#raiseEvidence(envelopeId, built), now);
      result = await this.#o.signing.result(envelopeId);
      if (!result) throw new TypeError(`completion result of ${envelopeId} was not stored`);
    }
    const evidence = this.#o.evidence;
    if (evidence) {
      // Idempotent: a second pass (or instance) records the same hashes and queue entry.
      const files = { combinedWithCertificate: new Uint8Array(result.combined_with_certificate), combinedDocuments: new Uint8Array(result.combined_documents), certificate: new Uint8Array(result.certificate) };
      const upgradeAt = evidence.upgrader.needsUpgrade(files) ? nextEvidenceAttempt(1, now) : undefined;
      await evidence.repository.track(envelopeId, accountId, files, evidence.upgrader.levelOf(files), now, upgradeAt, evidence.upgrader.renewAt(files, now));
    }
    // Every signer and carbon copy gets the sealed PDF, and a personal link to download it
    // (the link is what they get instead of the attachment above 5 MB, docs/esign-signing.md "Completion").
    // Embedded recipients do not: DocuSign's embedding guide lists the envelope's completion among
    // the mails they never get (the sender's application hands them the documents).
    // A recipient kept from some documents (enforceSignerVisibility) gets only theirs (recipient-copy.ts).
    const signingTokens: SigningTokenRecord[] = [];
    const sealed = new Uint8Array(result.combined_with_certificate);
    const mailed = envelope.recipients.filter((r) => !isEmbedded(r));
    const copies = await Promise.all(mailed.map((r) => recipientCopy(envelope, r, () => Promise.resolve(sealed), (documentId) => this.#o.signing.signedDocument(envelopeId, documentId))));
    const mails: MailMessage[] = mailed.map((r, i) => {
      const { token, record } = newSigningLink({ random, hashSecret }, envelopeId, r.recipientId, now);
      signingTokens.push(record);
      return envelopeCompletedMail({
        envelopeId,
        to: { email: r.email, name: r.name },
        emailSubject: envelope.emailSubject,
        pdf: { filename: combinedFileName(envelope.emailSubject), bytes: copies[i] ?? sealed },
        downloadUrl: `${signingUrl(this.#o.publicUrl, token)}${DOWNLOAD_SUFFIX}`,
        brand: mailBrandOf(envelope.brand, this.#o.publicUrl),
        language: recipientLanguage(envelope, r),
      });
    });
    const change = markCompleted(envelope, now, { mails, signingTokens });
    const completed = change !== undefined && (await store.update(envelopeWrite(envelope, change)));
    if (completed) await this.#o.failures.clear(envelopeId);
    return completed;
  }

  /** The sealed files as far up the configured level as the trust services allow now; the rest is queued. */
  async #raiseEvidence<T extends SealedFiles>(envelopeId: string, built: T): Promise<T> {
    const upgrader = this.#o.evidence?.upgrader;
    if (!upgrader?.needsUpgrade(built)) return built;
    const outcome = await upgrader.upgrade(built);
    if (outcome.error !== undefined) this.#o.onEvidenceDeferred?.(envelopeId, outcome.error);
    return { ...built, ...outcome.files };
  }

  start(): void {
    this.#loop.start();
  }

  /** A signer just finished the last signature: complete now rather than at the next poll. */
  wake(): void {
    this.#loop.wake();
  }

  async stop(): Promise<void> {
    await this.#loop.stop();
  }
}
