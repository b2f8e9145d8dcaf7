import type { EnvelopeEmailUpdate } from '../domain/envelope/update-envelope-email.ts';
import { WireReader } from './wire-reader.ts';

/** The emailSubject / emailBlurb of an Envelopes::update body (same limits as at create). */
export function parseEnvelopeEmailUpdate(body: unknown): EnvelopeEmailUpdate {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  const root = new WireReader('', body);
  const emailSubject = root.field('emailSubject').optionalString(100);
  const emailBlurb = root.field('emailBlurb').optionalString(10_000);
  return { ...(emailSubject !== undefined ? { emailSubject } : {}), ...(emailBlurb !== undefined ? { emailBlurb } : {}) };
}
