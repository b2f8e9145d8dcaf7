import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Every way in a recipient had stops working: the signing links mailed to them, the recipient
 * views and signing sessions of an embedded signer, the access-code grants of their browsers.
 * Used when their e-mail address is corrected (the old link went to the old address) and when
 * they are deleted; run inside the change's transaction, before its new links are stored.
 */
export async function revokeSigning(trx: Kysely<Database>, envelopeId: string, recipientIds: readonly string[]): Promise<void> {
  if (recipientIds.length === 0) return;
  await trx.deleteFrom('signing_tokens').where('envelope_id', '=', envelopeId).where('recipient_id', 'in', recipientIds).where('purpose', '=', 'signing').execute();
  await trx.deleteFrom('recipient_views').where('envelope_id', '=', envelopeId).where('recipient_id', 'in', recipientIds).execute();
  await trx.deleteFrom('signing_sessions').where('envelope_id', '=', envelopeId).where('recipient_id', 'in', recipientIds).execute();
  await trx.deleteFrom('signing_access_grants').where('envelope_id', '=', envelopeId).where('recipient_id', 'in', recipientIds).execute();
}

/** Deleted recipients (deleteRecipient(s)): their rows, tabs, access codes, passcodes, signatures and ways in. */
export async function removeRecipients(trx: Kysely<Database>, envelopeId: string, recipientIds: readonly string[]): Promise<void> {
  if (recipientIds.length === 0) return;
  await revokeSigning(trx, envelopeId, recipientIds);
  await trx.deleteFrom('envelope_tabs').where('envelope_id', '=', envelopeId).where('recipient_id', 'in', recipientIds).execute();
  await trx.deleteFrom('recipient_access_codes').where('envelope_id', '=', envelopeId).where('recipient_id', 'in', recipientIds).execute();
  await trx.deleteFrom('recipient_passcodes').where('envelope_id', '=', envelopeId).where('recipient_id', 'in', recipientIds).execute();
  await trx.deleteFrom('adopted_signatures').where('envelope_id', '=', envelopeId).where('recipient_id', 'in', recipientIds).execute();
  await trx.deleteFrom('envelope_recipients').where('envelope_id', '=', envelopeId).where('recipient_id', 'in', recipientIds).execute();
}
