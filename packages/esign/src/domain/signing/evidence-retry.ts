/**
 * How often a sealed file's evidence upgrade (a timestamp, validation data) is retried after the
 * TSA or an OCSP responder failed: 1, 4, 16, 64 minutes…, then every 6 hours, never giving up:
 * the envelope is already completed at B-B, and an outage of a trust service ends.
 */
export const EVIDENCE_RETRY = { firstDelayMs: 60_000, factor: 4, maxDelayMs: 6 * 3_600_000 } as const;

/** When to try again after the `attempts`-th failure in a row. */
export function nextEvidenceAttempt(attempts: number, failedAt: Date): Date {
  const delay = Math.min(EVIDENCE_RETRY.maxDelayMs, EVIDENCE_RETRY.firstDelayMs * EVIDENCE_RETRY.factor ** Math.max(0, attempts - 1));
  return new Date(failedAt.getTime() + delay);
}

/** How long one instance holds an upgrade it is working on before another may take it over. */
export const EVIDENCE_LEASE_MS = 10 * 60_000;

/**
 * B-LTA renewal: a new DSS and document timestamp this long before the last document
 * timestamp's certificate expires (docs/pdf.md). If the TSA's own certificate is already
 * inside the margin, renewing cannot push the date out; then it is tried again daily rather
 * than on every poll.
 */
export const EVIDENCE_RENEW_BEFORE_MS = 30 * 86_400_000;

export function nextRenewal(expiry: Date, now: Date): Date {
  return new Date(Math.max(expiry.getTime() - EVIDENCE_RENEW_BEFORE_MS, now.getTime() + 86_400_000));
}
