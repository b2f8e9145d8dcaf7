import { addDocumentTimestamp, addValidationData, documentTimestampExpiry, evidenceLevel, reaches, timestampSeal, EVIDENCE_LEVELS, type EvidenceLevel, type TimestampAuthority } from '@signet/pdf';
import { nextRenewal } from '../domain/signing/evidence-retry.ts';
import type { SealedFiles } from '../store/evidence-repository.ts';

/**
 * The three evidence steps. By default they run here; the server passes its PdfThreads, so that
 * pdf-lib's parse of whole sealed files happens off the event loop (PdfThreads has these methods).
 */
export type EvidenceSteps = {
  timestampSeal(pdf: Uint8Array, tsa: TimestampAuthority): Promise<{ pdf: Uint8Array }>;
  addValidationData(pdf: Uint8Array): Promise<Uint8Array>;
  addDocumentTimestamp(pdf: Uint8Array, tsa: TimestampAuthority): Promise<{ pdf: Uint8Array }>;
};
const IN_PROCESS: EvidenceSteps = { timestampSeal, addValidationData: (pdf) => addValidationData(pdf), addDocumentTimestamp };

/** What the deployment asks of its seals (config TSA_URL, SEAL_LEVEL; docs/pdf.md). */
export type EvidencePolicy = { readonly tsa?: TimestampAuthority | undefined; readonly level: EvidenceLevel };

/** How far an upgrade got: the files as they now are, and what stopped it short of the target. */
export type UpgradeOutcome = { readonly files: SealedFiles; readonly level: EvidenceLevel; readonly error?: Error };

const FILES = ['combinedWithCertificate', 'combinedDocuments', 'certificate'] as const;

/**
 * Raises sealed files to the configured PAdES level, step by step: B-T (timestamp the seal in
 * place), B-LT (DSS revision), B-LTA (document timestamp revision). Each step looks at what the
 * file already has, so running it again, on files half-upgraded by a crashed or another
 * instance, finishes the job and does nothing twice. A step that fails keeps what the earlier
 * steps gained (a B-T file is worth storing while the OCSP responder is down).
 */
export class EvidenceUpgrader {
  readonly target: EvidenceLevel;
  readonly #tsa: TimestampAuthority | undefined;
  readonly #steps: EvidenceSteps;

  constructor(policy: EvidencePolicy, steps: EvidenceSteps = IN_PROCESS) {
    if (policy.level !== 'B-B' && !policy.tsa) throw new TypeError(`${policy.level} needs a timestamp authority`);
    this.target = policy.level;
    this.#tsa = policy.tsa;
    this.#steps = steps;
  }

  /** The lowest level among the files (what the envelope's evidence can be said to reach). */
  levelOf(files: SealedFiles): EvidenceLevel {
    const levels = FILES.map((k) => EVIDENCE_LEVELS.indexOf(evidenceLevel(files[k]) ?? 'B-B'));
    return EVIDENCE_LEVELS[Math.min(...levels)] ?? 'B-B';
  }

  needsUpgrade(files: SealedFiles): boolean {
    return !reaches(this.levelOf(files), this.target);
  }

  async upgrade(files: SealedFiles): Promise<UpgradeOutcome> {
    const out: Record<(typeof FILES)[number], Uint8Array> = { ...files };
    const tsa = this.#tsa;
    // Level by level across the three files: a failure at B-LT still leaves all three B-T.
    const run = this.#steps;
    const steps: [EvidenceLevel, (pdf: Uint8Array, tsa: TimestampAuthority) => Promise<Uint8Array>][] = [
      ['B-T', async (pdf, t) => (await run.timestampSeal(pdf, t)).pdf],
      ['B-LT', (pdf) => run.addValidationData(pdf)],
      ['B-LTA', async (pdf, t) => (await run.addDocumentTimestamp(pdf, t)).pdf],
    ];
    try {
      for (const [level, step] of steps) {
        if (!tsa || !reaches(this.target, level)) break;
        for (const key of FILES) if (!reaches(evidenceLevel(out[key]), level)) out[key] = await step(out[key], tsa);
      }
    } catch (err) {
      const error = err instanceof Error ? err : new Error('the evidence upgrade failed', { cause: err });
      return { files: out, level: this.levelOf(out), error };
    }
    return { files: out, level: this.levelOf(out) };
  }

  /**
   * Whether this deployment can raise files above B-B (it has a TSA). One that cannot leaves
   * queued upgrades for an instance, or a later configuration, that can, rather than marking
   * them done at B-B.
   */
  get upgrades(): boolean {
    return this.target !== 'B-B' && this.#tsa !== undefined;
  }

  /**
   * Whether this deployment can renew B-LTA files (it aims at B-LTA, so it has a TSA). One that
   * cannot leaves due renewals alone for an instance, or a later configuration, that can.
   */
  get renews(): boolean {
    return this.target === 'B-LTA' && this.#tsa !== undefined;
  }

  /** When B-LTA files need their renewal (undefined below B-LTA, or when B-LTA is not the target). */
  renewAt(files: SealedFiles, now: Date): Date | undefined {
    if (this.target !== 'B-LTA') return undefined;
    const expiries = FILES.map((k) => documentTimestampExpiry(files[k])).filter((d): d is Date => d !== undefined);
    if (expiries.length < FILES.length) return undefined;
    return nextRenewal(new Date(Math.min(...expiries.map((d) => d.getTime()))), now);
  }

  /**
   * B-LTA renewal (ETSI EN 319 142-1 §5.5): each file gets a new revision with validation data
   * for everything in it (the last document timestamp's chain included), then a new document
   * timestamp over all of it, which carries the evidence past the old timestamp's expiry.
   */
  async renew(files: SealedFiles): Promise<SealedFiles> {
    const tsa = this.#tsa;
    if (!tsa || !this.renews) return files;
    const out: Record<(typeof FILES)[number], Uint8Array> = { ...files };
    for (const key of FILES) out[key] = (await this.#steps.addDocumentTimestamp(await this.#steps.addValidationData(out[key]), tsa)).pdf;
    return out;
  }
}
