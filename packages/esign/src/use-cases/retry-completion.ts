import { EsignError } from '../errors.ts';
import type { Db } from '../store/database.ts';
import { CompletionFailuresRepository } from '../store/completion-failures-repository.ts';

/**
 * An operator's retry of a completion that failed (signet-esign completion retry): the envelope
 * goes back into the completion queue at once, and the sender's audit trail says who asked.
 */
export async function retryCompletion(db: Db, input: { envelopeId: string; operator: string; now: Date }): Promise<{ envelopeId: string; queuedAt: string }> {
  const operator = input.operator.replace(/\s+/g, ' ').trim().slice(0, 100) || 'operator';
  const retried = await new CompletionFailuresRepository(db).retry(input.envelopeId, input.now, {
    envelopeId: input.envelopeId,
    at: input.now,
    action: 'Completion Retried',
    envelopeStatus: 'signed',
    source: 'system',
    message: `The service operator (${operator}) asked for the documents to be stamped and sealed again.`,
    name: operator,
  });
  if (!retried) throw new EsignError('ENVELOPE_INVALID_STATUS', `Envelope ${input.envelopeId} is not a signed envelope whose completion failed.`);
  return { envelopeId: input.envelopeId, queuedAt: input.now.toISOString() };
}
