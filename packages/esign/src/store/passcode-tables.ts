import type { Kysely } from 'kysely';
import type { Envelope } from '../domain/envelope/envelope.ts';
import { IDENTITY_WORKFLOWS } from '../domain/signing/identity-workflows.ts';
import type { PasscodeAskedAs, PasscodeMethod, RecipientPasscode } from '../domain/signing/passcode.ts';
import type { Migration } from './migrations.ts';
import type { Database } from './schema.ts';

/**
 * Signers' one-time passcode checks (domain/signing/passcode.ts), versioned with their
 * envelope: where codes go, the wrong-code and sent-code counts, and the pending code's hash;
 * the text messages the development sender keeps instead of sending them (signing/
 * dev-text-outbox.ts); and which check a browser grant stands for (an access code or a passcode).
 */
export type RecipientPasscodeRow = {
  envelope_id: string;
  recipient_id: string;
  method: string;
  /** JSON array of strings. */
  destinations_json: string;
  failures: number;
  sends: number;
  locked_at: string | null;
  code_hash: string | null;
  code_expires_at: string | null;
  /** PasscodeAskedAs as JSON (store/passcode-asked-as-column.ts); null for checks stored before it. */
  asked_as_json: string | null;
};
export type DevTextMessageRow = { id: string; sent_at: string; channel: string; to_number: string; body: string; envelope_id: string | null };

export type PasscodeTables = { recipient_passcodes: RecipientPasscodeRow; dev_text_messages: DevTextMessageRow };

export const PASSCODE_TABLES_MIGRATION: Migration = {
  version: 85,
  name: 'one-time passcode checks, the development text outbox, and what a signing grant stands for',
  async up(db) {
    await db.schema.createTable('recipient_passcodes')
      .addColumn('envelope_id', 'text', (c) => c.notNull().references('envelopes.id'))
      .addColumn('recipient_id', 'text', (c) => c.notNull())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('destinations_json', 'text', (c) => c.notNull())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .addColumn('sends', 'integer', (c) => c.notNull())
      .addColumn('locked_at', 'text')
      .addColumn('code_hash', 'text')
      .addColumn('code_expires_at', 'text')
      .addPrimaryKeyConstraint('recipient_passcodes_pk', ['envelope_id', 'recipient_id'])
      .execute();
    await db.schema.createTable('dev_text_messages')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('sent_at', 'text', (c) => c.notNull())
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('to_number', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('envelope_id', 'text')
      .execute();
    await db.schema.createIndex('dev_text_messages_sent_idx').on('dev_text_messages').column('sent_at').execute();
    // Grants made before this migration were all for access codes.
    await db.schema.alterTable('signing_access_grants').addColumn('method', 'text', (c) => c.notNull().defaultTo('access_code')).execute();
  },
};

/** Writes the envelope's passcode checks inside the caller's transaction; envelopes without any cost nothing. */
export async function saveRecipientPasscodes(trx: Kysely<Database>, envelope: Envelope): Promise<void> {
  for (const r of envelope.recipients) {
    const code = r.passcode;
    if (!code) continue;
    const fields = {
      method: code.method,
      destinations_json: JSON.stringify(code.destinations),
      failures: code.failures,
      sends: code.sends,
      locked_at: code.lockedAt?.toISOString() ?? null,
      code_hash: code.pending?.hash ?? null,
      code_expires_at: code.pending?.expiresAt.toISOString() ?? null,
      asked_as_json: JSON.stringify(code.askedAs),
    };
    await trx.insertInto('recipient_passcodes').values({ envelope_id: envelope.envelopeId, recipient_id: r.recipientId, ...fields })
      .onConflict((oc) => oc.columns(['envelope_id', 'recipient_id']).doUpdateSet(fields)).execute();
  }
}

/** The passcode checks of several envelopes: envelope id → recipient id → check. */
export async function loadRecipientPasscodes(k: Kysely<Database>, envelopeIds: readonly string[]): Promise<Map<string, Map<string, RecipientPasscode>>> {
  const byEnvelope = new Map<string, Map<string, RecipientPasscode>>();
  if (envelopeIds.length === 0) return byEnvelope;
  const rows = await k.selectFrom('recipient_passcodes').selectAll().where('envelope_id', 'in', [...envelopeIds]).execute();
  for (const r of rows) {
    const codes = byEnvelope.get(r.envelope_id) ?? new Map<string, RecipientPasscode>();
    const method = r.method as PasscodeMethod;
    codes.set(r.recipient_id, {
      method,
      destinations: JSON.parse(r.destinations_json) as string[],
      askedAs: r.asked_as_json !== null ? JSON.parse(r.asked_as_json) as PasscodeAskedAs : askedAsBefore(method),
      failures: Number(r.failures),
      sends: Number(r.sends),
      ...(r.locked_at !== null ? { lockedAt: new Date(r.locked_at) } : {}),
      ...(r.code_hash !== null && r.code_expires_at !== null ? { pending: { hash: r.code_hash, expiresAt: new Date(r.code_expires_at) } } : {}),
    });
    byEnvelope.set(r.envelope_id, codes);
  }
  return byEnvelope;
}

/**
 * A check stored before its shape was kept: an e-mail passcode can only have been asked for by
 * its identity verification workflow; SMS and phone checks are read as idCheckConfigurationName
 * with senderProvidedNumbers, the shape that names their numbers whole.
 */
function askedAsBefore(method: PasscodeMethod): PasscodeAskedAs {
  const email = IDENTITY_WORKFLOWS.find((w) => w.method === 'email');
  return method === 'email' && email ? { kind: 'identityVerification', workflowId: email.workflowId, phoneNumbers: [] } : { kind: 'idCheck' };
}
