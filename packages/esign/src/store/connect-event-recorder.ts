import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { buildConnectMessage, ENVELOPE_LEVEL_CONFIGURATION_ID } from '../connect/build-connect-message.ts';
import { deriveConnectEvents, type EnvelopeStatuses } from '../connect/derive-connect-events.ts';
import { coversSender, type ConnectConfiguration, type EventSubscription } from '../connect/event-subscription.ts';
import type { Envelope, EnvelopeStatus, RecipientStatus } from '../domain/envelope/envelope.ts';
import type { ConnectTables } from './connect-tables.ts';
import type { EnvelopeTables } from './envelope-tables.ts';

type Trx = Kysely<EnvelopeTables & ConnectTables>;

/** The stored statuses of an envelope, read inside the change's transaction (before it writes). */
export async function readEnvelopeStatuses(trx: Kysely<EnvelopeTables>, envelopeId: string): Promise<EnvelopeStatuses | undefined> {
  const row = await trx.selectFrom('envelopes').select('status').where('id', '=', envelopeId).executeTakeFirst();
  if (!row) return undefined;
  const recipients = await trx.selectFrom('envelope_recipients').select(['recipient_id', 'status']).where('envelope_id', '=', envelopeId).execute();
  return { status: row.status as EnvelopeStatus, recipients: recipients.map((r) => ({ recipientId: r.recipient_id, status: r.status as RecipientStatus })) };
}

/**
 * The Connect side of an envelope change, inside its transaction (store/envelopes-repository.ts
 * calls it from create() and update()): stores a new envelope's own eventNotification, derives
 * the change's events, and writes one delivery per (event, subscription that wants it): the
 * envelope's eventNotification and every enabled configuration of the account covering the
 * sender. Either the change and its deliveries commit together or neither does. Returns the
 * number of deliveries written.
 */
export async function recordConnectEvents(envelopeTrx: Kysely<EnvelopeTables>, input: { before: EnvelopeStatuses | undefined; after: Envelope; eventNotification?: EventSubscription | undefined; now?: Date }): Promise<number> {
  const trx: Trx = envelopeTrx.withTables<ConnectTables>();
  const { after: envelope } = input;
  // Wall-clock time, not the envelope's statusChangedAt: a recipient-only change (the next
  // routing order reached) keeps the envelope's time, yet its deliveries must sort after the
  // earlier change's, and be due for the worker's clock at once.
  const now = input.now ?? new Date();
  const at = now.toISOString();
  if (input.eventNotification) {
    await trx.insertInto('connect_envelope_notifications').values({ envelope_id: envelope.envelopeId, account_id: envelope.accountId, subscription_json: JSON.stringify(input.eventNotification), created_at: at }).execute();
  }
  const occurrences = deriveConnectEvents(input.before, envelope);
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
      const message = buildConnectMessage({ envelope, occurrence, subscription, configurationId, now });
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
