import type { PdfThreads, SealIdentity } from '@signet/pdf';
import type { EnvelopeDeps } from '../domain/envelope/ports.ts';
import type { Repositories } from '../store/repositories.ts';
import { CompletionWorker, type CompletionWorkerOptions } from './completion-worker.ts';
import type { EvidenceRepository } from '../store/evidence-repository.ts';
import type { EvidenceUpgrader } from './evidence-upgrader.ts';
import { loadOrCreateDevSeal } from './dev-seal-identity.ts';

/**
 * The completion worker of this instance, built once by server.ts (not started here). It seals
 * with the configured P12, else with the development seal of DATA_DIR, loaded on first use; it
 * stamps signatures and draws tab values on `images`, the worker thread that also decodes
 * signatures at Finish.
 */
export function buildCompletionWorker(input: {
  envelopes: EnvelopeDeps;
  repositories: Pick<Repositories, 'signing' | 'audit' | 'completionFailures'>;
  images: PdfThreads;
  seal: SealIdentity | undefined;
  dataDir: string;
  publicUrl: string;
  senderOf: NonNullable<CompletionWorkerOptions['senderOf']>;
  pollIntervalMs: number | undefined;
  onError: CompletionWorkerOptions['onError'];
  /** Sealed files' hashes and their raise to the configured PAdES level (docs/pdf.md). */
  evidence: { repository: EvidenceRepository; upgrader: EvidenceUpgrader; onDeferred: NonNullable<CompletionWorkerOptions['onEvidenceDeferred']> };
}): CompletionWorker {
  let seal: Promise<SealIdentity> | undefined;
  const { images } = input;
  return new CompletionWorker({
    envelopes: input.envelopes,
    signing: input.repositories.signing,
    audit: input.repositories.audit,
    failures: input.repositories.completionFailures,
    stamp: (pdf, stamps, stampOptions) => images.stampSignatures(pdf, stamps, stampOptions),
    drawValues: (pdf, stamps) => images.drawTabValues(pdf, stamps),
    publicUrl: input.publicUrl,
    seal: () => (seal ??= input.seal ? Promise.resolve(input.seal) : Promise.resolve().then(() => loadOrCreateDevSeal(input.dataDir))),
    senderOf: input.senderOf,
    ...(input.pollIntervalMs !== undefined ? { pollIntervalMs: input.pollIntervalMs } : {}),
    ...(input.onError ? { onError: input.onError } : {}),
    evidence: { repository: input.evidence.repository, upgrader: input.evidence.upgrader },
    onEvidenceDeferred: input.evidence.onDeferred,
  });
}
