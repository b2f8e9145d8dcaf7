import { EsignError } from '../../errors.ts';
import type { Envelope } from './envelope.ts';
import type { EnvelopeDeps } from './ports.ts';

/** An envelope of the account, or DocuSign's ENVELOPE_DOES_NOT_EXIST (also for other accounts' envelopes). */
export async function getEnvelope(deps: Pick<EnvelopeDeps, 'store'>, accountId: string, envelopeId: string): Promise<Envelope> {
  const envelope = await deps.store.find(accountId, envelopeId);
  if (!envelope) throw new EsignError('ENVELOPE_DOES_NOT_EXIST');
  return envelope;
}
