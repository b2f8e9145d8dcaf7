import type { AuditEvent } from '../signing/audit-event.ts';
import type { Envelope } from './envelope.ts';
import { activeHold } from './workflow.ts';

/** The audit line of a hold that just began. */
export function pausedAudit(envelope: Envelope, at: Date, source: AuditEvent['source'], message: string): AuditEvent {
  return { envelopeId: envelope.envelopeId, at, action: 'Routing Paused', envelopeStatus: envelope.status, source, message };
}

/**
 * The audit line for routing that stopped before `pausedBefore` (advanceRouting's answer), or
 * none when it did not stop: says whether the hold ends on its own, and when.
 */
export function routedAudit(envelope: Envelope, at: Date, source: AuditEvent['source'], pausedBefore: number | undefined): AuditEvent[] {
  if (pausedBefore === undefined) return [];
  const hold = activeHold(envelope.workflow);
  const when = hold?.resumeAt ? `it resumes on its own at ${hold.resumeAt.toISOString()}` : 'it resumes when the sender unpauses it';
  return [pausedAudit(envelope, at, source, `Routing paused before routing order ${pausedBefore}: ${when}.`)];
}
