import type { ColumnType, Kysely } from 'kysely';
import type { RecipientAccessCode } from '../domain/signing/access-code.ts';
import type { Envelope } from '../domain/envelope/envelope.ts';
import type { Migration } from './migrations.ts';
import type { Database } from './schema.ts';

/**
 * Signers' access codes (domain/signing/access-code.ts), hashed, with the wrong-code count,
 * versioned with their envelope; and the grants a right code earns a browser (a cookie whose
 * SHA-256 is kept here), which the signing pages check before showing anything.
 */
export type RecipientAccessCodeRow = { envelope_id: string; recipient_id: string; code_hash: string; failures: number; locked_at: string | null };
/** `method`: which check the grant stands for, 'access_code' or 'passcode' (added by store/passcode-tables.ts, default 'access_code'). */
export type SigningAccessGrantRow = { token_hash: string; envelope_id: string; recipient_id: string; created_at: string; expires_at: string; method: ColumnType<string, string | undefined, string> };

export type AccessCodeTables = { recipient_access_codes: RecipientAccessCodeRow; signing_access_grants: SigningAccessGrantRow };

export const ACCESS_CODE_TABLES_MIGRATION: Migration = {
  version: 84,
  name: 'signer access codes and the browser grants a right code earns',
  async up(db) {
    await db.schema.createTable('recipient_access_codes')
      .addColumn('envelope_id', 'text', (c) => c.notNull().references('envelopes.id'))
      .addColumn('recipient_id', 'text', (c) => c.notNull())
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .addColumn('locked_at', 'text')
      .addPrimaryKeyConstraint('recipient_access_codes_pk', ['envelope_id', 'recipient_id'])
      .execute();
    await db.schema.createTable('signing_access_grants')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('envelope_id', 'text', (c) => c.notNull().references('envelopes.id'))
      .addColumn('recipient_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('signing_access_grants_expiry_idx').on('signing_access_grants').column('expires_at').execute();
  },
};

/** Writes the envelope's signers' access codes inside the caller's transaction; envelopes without any cost nothing. */
export async function saveRecipientAccessCodes(trx: Kysely<Database>, envelope: Envelope): Promise<void> {
  for (const r of envelope.recipients) {
    const code = r.accessCode;
    if (!code) continue;
    const fields = { code_hash: code.hash, failures: code.failures, locked_at: code.lockedAt?.toISOString() ?? null };
    await trx.insertInto('recipient_access_codes').values({ envelope_id: envelope.envelopeId, recipient_id: r.recipientId, ...fields })
      .onConflict((oc) => oc.columns(['envelope_id', 'recipient_id']).doUpdateSet(fields)).execute();
  }
}

/** The access codes of several envelopes: envelope id → recipient id → code. */
export async function loadRecipientAccessCodes(k: Kysely<Database>, envelopeIds: readonly string[]): Promise<Map<string, Map<string, RecipientAccessCode>>> {
  const byEnvelope = new Map<string, Map<string, RecipientAccessCode>>();
  if (envelopeIds.length === 0) return byEnvelope;
  const rows = await k.selectFrom('recipient_access_codes').selectAll().where('envelope_id', 'in', [...envelopeIds]).execute();
  for (const r of rows) {
    const codes = byEnvelope.get(r.envelope_id) ?? new Map<string, RecipientAccessCode>();
    codes.set(r.recipient_id, { hash: r.code_hash, failures: Number(r.failures), ...(r.locked_at !== null ? { lockedAt: new Date(r.locked_at) } : {}) });
    byEnvelope.set(r.envelope_id, codes);
  }
  return byEnvelope;
}
