import { deriveConnectEvents } from '../connect/derive-connect-events.ts';
import type { Envelope } from './envelope.ts';
import type { EnvelopeChange, EnvelopeWrite } from './ports.ts';

/**
 * The change with the effects that follow from the envelope before it (undefined for a new
 * one) and after it: the Connect events. The store's version check makes `before` exactly the
 * stored state the write replaces, so the events are those of this change and no other.
 */
export function envelopeWrite(before: Envelope | undefined, change: EnvelopeChange): EnvelopeWrite {
  return { ...change, connectEvents: deriveConnectEvents(before, change.envelope) };
}
