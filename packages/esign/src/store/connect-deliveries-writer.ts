import type { Database } from './schema.ts';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ENVELOPE_LEVEL_CONFIGURATION_ID, type ConnectMessageBuilder } from '../domain/connect/connect-message.ts';
import type { ConnectOccurrence } from '../domain/connect/derive-connect-events.ts';
import { coversSender, type ConnectConfiguration, type EventSubscription } from '../domain/connect/event-subscription.ts';
import type { Envelope } from '../domain/envelope/envelope.ts';

type Trx = Kysely<Database>;

/**
 * The Connect side of an envelope write, inside its transaction (EnvelopesRepository calls it
 * from create() and update()): stores a new envelope's own eventNotification, then writes one
 * delivery per (event the write lists, subscription that wants it): the envelope's
 * eventNotification and every enabled configuration of the account covering the sender. The
 * message is rendered by `build` (the wire format is the Connect adapter's). Either the change
 * and its deliveries commit together or neither does. Returns the number of deliveries written.
 */
export async function writeConnectDeliveries(envelopeTrx: Kysely<Database>, input: { envelope: Envelope; events: readonly ConnectOccurrence[]; eventNotification?: EventSubscription | undefined; build: ConnectMessageBuilder; now?: Date }): Promise<number> {
  const trx: Trx = envelopeTrx;
  const { envelope } = input;
  // Wall-clock time, not the envelope's statusChangedAt: a recipient-only change (the next
  // routing order reached) keeps the envelope's time, yet its deliveries must sort after the
  // earlier change's, and be due for the worker's clock at once.
  const now = input.now ?? new Date();
  const at = now.toISOString();
  if (input.eventNotification) {
    await trx.insertInto('connect_envelope_notifications').values({ envelope_id: envelope.envelopeId, account_id: envelope.accountId, subscription_json: JSON.stringify(input.eventNotification), created_at: at }).execute();
  }
  const occurrences = input.events;
  if (occurrences.length === 0) return 0;

  const subscriptions: { configurationId: string; subscription: EventSubscription }[] = [];
  const own = await trx.selectFrom('connect_envelope_notifications').select('subscription_json').where('envelope_id', '=', envelope.envelopeId).executeTakeFirst();
  if (own) subscriptions.push({ configurationId: ENVELOPE_LEVEL_CONFIGURATION_ID, subscription: JSON.parse(own.subscription_json) as EventSubscription });
  const configurations = await trx.selectFrom('connect_configurations').selectAll().where('account_id', '=', envelope.accountId).where('enabled', '=', 1).orderBy('connect_id').execute();
  for (const row of configurations) {
    const configuration = { ...(JSON.parse(row.configuration_json) as Omit<ConnectConfiguration, 'connectId' | 'accountId'>), connectId: row.connect_id, accountId: row.account_id };
    if (coversSender(configuration, envelope.senderUserId)) subscriptions.push({ configurationId: row.connect_id, subscription: configuration });
  }

  let written = 0;
  for (const occurrence of occurrences) {
    for (const { configurationId, subscription } of subscriptions) {
      if (!subscription.events.includes(occurrence.event)) continue;
      const message = input.build({ envelope, occurrence, subscription, configurationId, now });
      await trx.insertInto('connect_deliveries').values({
        id: randomUUID(),
        account_id: envelope.accountId,
        envelope_id: envelope.envelopeId,
        recipient_id: occurrence.recipientId ?? null,
        event: occurrence.event,
        seq: written,
        configuration_id: configurationId,
        url: subscription.url,
        include_hmac: subscription.includeHMAC ? 1 : 0,
        include_documents: subscription.includeDocuments ? 1 : 0,
        message_json: JSON.stringify(message),
        status: 'pending',
        attempts: 0,
        attempts_base: 0,
        next_attempt_at: at,
        claimed_by: null,
        lease_until: null,
        last_error: null,
        last_attempt_at: null,
        created_at: at,
        delivered_at: null,
      }).execute();
      written++;
    }
  }
  return written;
}
