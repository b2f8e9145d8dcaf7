import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/store/database.ts';

/**
 * Writes one pending delivery straight into the outbox, as connect-deliveries-writer.ts would
 * for an envelope change: what the claim tests need without building envelopes.
 */
export async function queueDelivery(db: Db, input: { accountId: string; url: string; createdAt: Date; dueAt?: Date }): Promise<string> {
  const id = randomUUID();
  const envelopeId = randomUUID();
  const at = input.createdAt.toISOString();
  const message = { event: 'envelope-sent', apiVersion: 'v2.1', uri: `/restapi/v2.1/accounts/${input.accountId}/envelopes/${envelopeId}`, configurationId: 1, generatedDateTime: at, data: { accountId: input.accountId, userId: 'u', envelopeId } };
  await db.kysely.insertInto('connect_deliveries').values({
    id, account_id: input.accountId, envelope_id: envelopeId, recipient_id: null, event: 'envelope-sent', seq: 0, configuration_id: '1', url: input.url,
    include_hmac: 0, include_documents: 0, message_json: JSON.stringify(message), status: 'pending', attempts: 0, attempts_base: 0,
    next_attempt_at: (input.dueAt ?? input.createdAt).toISOString(), claimed_by: null, lease_until: null, last_error: null, last_attempt_at: null, created_at: at, delivered_at: null,
  }).execute();
  return id;
}
