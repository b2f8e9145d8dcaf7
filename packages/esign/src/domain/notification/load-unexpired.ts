import type { Envelope } from '../envelope/envelope.ts';
import { getEnvelope } from '../envelope/get-envelope.ts';
import type { EnvelopeDeps } from '../envelope/ports.ts';
import { applySigningChange } from '../signing/apply-signing-change.ts';
import { expiryIfDue, type NotificationStepDeps } from './notification-step.ts';

/**
 * The envelope as someone about to sign it sees it at `now`: one whose expiry time has passed
 * is expired first (expiryIfDue, the scheduler's own step), so nobody views, signs, declines
 * or opens a recipient view of an expired envelope while the scheduler, which polls, has yet
 * to get to it. Saved with the version check like every step: if the scheduler (or another
 * request) expires it at the same moment, one of them saves and the envelope expires once.
 */
export async function loadUnexpired(deps: Pick<EnvelopeDeps, 'store'>, expiry: NotificationStepDeps, accountId: string, envelopeId: string, now: Date): Promise<Envelope> {
  const envelope = await getEnvelope(deps, accountId, envelopeId);
  if (!expiryIfDue(expiry, envelope, now)) return envelope;
  return (await applySigningChange(deps, accountId, envelopeId, (current) => expiryIfDue(expiry, current, now))).envelope;
}
