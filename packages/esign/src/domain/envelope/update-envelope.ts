import { EsignError } from '../../errors.ts';
import type { Envelope } from './envelope.ts';
import { envelopeWrite } from './envelope-write.ts';
import { getEnvelope } from './get-envelope.ts';
import type { EnvelopeChange, EnvelopeDeps } from './ports.ts';

// Conflicts need two writers on one envelope in the same instant; a handful of retries is ample.
const MAX_ATTEMPTS = 5;

/**
 * Applies `change` to the current envelope with optimistic concurrency: when another request
 * (or another instance) saved first, the change is recomputed on the fresh state.
 */
export async function updateEnvelope(deps: Pick<EnvelopeDeps, 'store'>, accountId: string, envelopeId: string, change: (current: Envelope) => EnvelopeChange): Promise<Envelope> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await getEnvelope(deps, accountId, envelopeId);
    const next = change(current);
    if (await deps.store.update(envelopeWrite(current, next))) return next.envelope;
  }
  throw new EsignError('UNSPECIFIED_ERROR', 'The envelope kept changing under this request.');
}
