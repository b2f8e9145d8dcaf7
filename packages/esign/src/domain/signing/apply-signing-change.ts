import { EsignError } from '../../errors.ts';
import type { Envelope } from '../envelope/envelope.ts';
import { envelopeWrite } from '../envelope/envelope-write.ts';
import { getEnvelope } from '../envelope/get-envelope.ts';
import type { EnvelopeChange, EnvelopeDeps } from '../envelope/ports.ts';

// Two signers of one parallel order finishing in the same instant is the usual conflict.
const MAX_ATTEMPTS = 5;

/**
 * Like updateEnvelope (optimistic concurrency, recomputed on the fresh state), but a change
 * may be "nothing to do" (undefined): a second Finish, a second view. Then nothing is written
 * and the current envelope is returned, which makes finish and decline idempotent.
 */
export async function applySigningChange(
  deps: Pick<EnvelopeDeps, 'store'>,
  accountId: string,
  envelopeId: string,
  change: (current: Envelope) => EnvelopeChange | undefined,
): Promise<{ envelope: Envelope; changed: boolean }> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await getEnvelope(deps, accountId, envelopeId);
    const next = change(current);
    if (!next) return { envelope: current, changed: false };
    if (await deps.store.update(envelopeWrite(current, next))) return { envelope: next.envelope, changed: true };
  }
  throw new EsignError('UNSPECIFIED_ERROR', 'The envelope kept changing under this request.');
}
