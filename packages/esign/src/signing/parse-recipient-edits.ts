import type { RecipientEdit } from '../domain/signing/manage-recipients.ts';
import { EsignError } from '../errors.ts';

// recipient.<recipientId>.<field> (signing/recipients-page.ts); a recipientId is any text, the field is last.
const FIELD = /^recipient\.(.+)\.(name|email|routingOrder|accessCode)$/su;
// Any other field of a recipient asks for a change the page does not make: refused by name, never dropped.
const OTHER = /^recipient\.(.+)\.([A-Za-z]+)$/su;
// DocuSign's recipient bound per envelope (restapi/envelopes/parse-envelope-definition.ts).
const MAX_EDITS = 100;

/**
 * The recipients page's Finish form as edits, raw: manage-recipients.ts judges every value.
 * A field sent twice is refused (which of the two would count?), as is an over-long value.
 */
export function parseRecipientEdits(body: unknown): RecipientEdit[] {
  const edits = new Map<string, { -readonly [K in keyof RecipientEdit]: RecipientEdit[K] }>();
  if (typeof body !== 'object' || body === null) return [];
  for (const [key, raw] of Object.entries(body as Record<string, unknown>)) {
    const m = FIELD.exec(key);
    if (!m) {
      const other = OTHER.exec(key);
      if (other) throw new EsignError('INVALID_REQUEST_PARAMETER', `${key}: a recipient's ${other[2]} cannot be changed on this page (only name, email, routingOrder and, for an editor, accessCode).`);
      continue;
    }
    if (typeof raw !== 'string') throw new EsignError('INVALID_REQUEST_PARAMETER', `${key} must be sent once.`);
    if (raw.length > 1000) throw new EsignError('INVALID_REQUEST_PARAMETER', `${key} is too long.`);
    const recipientId = m[1]!;
    const edit = edits.get(recipientId) ?? { recipientId };
    edit[m[2] as 'name' | 'email' | 'routingOrder' | 'accessCode'] = raw;
    edits.set(recipientId, edit);
    if (edits.size > MAX_EDITS) throw new EsignError('INVALID_REQUEST_PARAMETER', `At most ${MAX_EDITS} recipients can be changed at once.`);
  }
  return [...edits.values()];
}

/** The posted values, by field name, to show again beside a refusal. */
export function postedRecipientFields(body: unknown): Map<string, string> {
  const posted = new Map<string, string>();
  if (typeof body !== 'object' || body === null) return posted;
  // An access code is never sent back into the page.
  for (const [key, raw] of Object.entries(body as Record<string, unknown>)) if (FIELD.test(key) && !key.endsWith('.accessCode') && typeof raw === 'string') posted.set(key, raw.slice(0, 1000));
  return posted;
}
