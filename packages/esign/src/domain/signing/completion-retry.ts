/**
 * How often the completion worker retries an envelope whose completion failed: 1, 4, 16 and
 * 64 minutes after the failures, then it gives up and waits for an operator. A failure that
 * is going to repeat (a damaged stored signature) costs five tries, not one every poll, and
 * the envelopes behind it in the queue are never held up.
 */
export const COMPLETION_RETRY = { attempts: 5, firstDelayMs: 60_000, factor: 4 } as const;

/** When to try again after the `attempts`-th failure in a row; undefined: give up. */
export function nextCompletionAttempt(attempts: number, failedAt: Date): Date | undefined {
  if (attempts >= COMPLETION_RETRY.attempts) return undefined;
  return new Date(failedAt.getTime() + COMPLETION_RETRY.firstDelayMs * COMPLETION_RETRY.factor ** (attempts - 1));
}

/** What the sender and the operator see of an envelope whose completion failed. */
export type CompletionProblem = {
  readonly envelopeId: string;
  readonly attempts: number;
  /** The error as the worker caught it: for the operator, never sent to API clients. */
  readonly lastError: string;
  readonly lastFailedAt: Date;
  /** The next automatic try; absent once the worker has given up (`failedAt`). */
  readonly nextAttemptAt?: Date;
  readonly failedAt?: Date;
};

/** The sentence API clients get in the envelope's errorDetails: no internals, what happens next. */
export function completionProblemMessage(p: CompletionProblem): string {
  const head = `The envelope is signed, but its documents could not be stamped and sealed (${p.attempts} ${p.attempts === 1 ? 'try' : 'tries'}).`;
  return p.nextAttemptAt
    ? `${head} The service tries again at ${p.nextAttemptAt.toISOString()}.`
    : `${head} The service has stopped trying; the operator has been told and can retry it.`;
}
