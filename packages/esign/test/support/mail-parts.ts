import assert from 'node:assert/strict';
import type { ParsedMail } from 'mailparser';

/** The first To address of a received mail ('' when it has none). */
export function toAddress(m: ParsedMail): string {
  return (Array.isArray(m.to) ? m.to[0] : m.to)?.value[0]?.address ?? '';
}

/** The path of the signing link a mail's text part carries on its own line (docs/esign-envelopes.md, "Signing links"). */
export function signingPathIn(m: ParsedMail, origin: string): string {
  return new URL(m.text?.split('\n').find((l) => l.startsWith(`${origin}/signing/`))?.trim() ?? assert.fail('a signing link')).pathname;
}
