import type { Database } from './schema.ts';
import type { Kysely } from 'kysely';
import type { AdoptedSignature } from '../domain/signing/adopted-signature.ts';
import type { Db } from './database.ts';
import type { SigningFrame } from '../domain/signing/signing-frame.ts';
import { frameColumns, frameFromColumns, type EnvelopeResultRow, type SigningSessionRow } from './signing-tables.ts';

export type { AdoptedSignature };

export type CompletionResult = {
  readonly combinedWithCertificate: Uint8Array;
  readonly combinedDocuments: Uint8Array;
  readonly certificate: Uint8Array;
  readonly signedDocuments: ReadonlyMap<string, Uint8Array>;
};

const buf = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * Writes (or replaces, when the signer retries) an adopted signature, inside the caller's
 * transaction: the Finish that uses it commits with it, or neither does.
 */
export async function upsertAdoptedSignature(trx: Kysely<Database>, envelopeId: string, recipientId: string, s: AdoptedSignature): Promise<void> {
  const k = trx;
  const row = {
    envelope_id: envelopeId,
    recipient_id: recipientId,
    kind: s.kind,
    typed_text: s.typedText ?? null,
    image: s.image ? buf(s.image) : null,
    signed_tabs_json: JSON.stringify(s.signedTabIds),
    adopted_at: s.adoptedAt.toISOString(),
  };
  const { envelope_id: _e, recipient_id: _r, ...update } = row;
  await k.insertInto('adopted_signatures').values(row).onConflict((oc) => oc.columns(['envelope_id', 'recipient_id']).doUpdateSet(update)).execute();
}

/** Storage of the signing ceremony and of completion results. */
export class SigningRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  get #k(): Kysely<Database> {
    return this.#db.kysely;
  }

  /** Saves (or replaces, when the signer retries) the signature a signer adopted. */
  async saveSignature(envelopeId: string, recipientId: string, s: AdoptedSignature): Promise<void> {
    await upsertAdoptedSignature(this.#k, envelopeId, recipientId, s);
  }

  /** Every adopted signature of an envelope, by recipient id. */
  async signatures(envelopeId: string): Promise<Map<string, AdoptedSignature>> {
    const rows = await this.#k.selectFrom('adopted_signatures').selectAll().where('envelope_id', '=', envelopeId).execute();
    return new Map(rows.map((r) => [r.recipient_id, {
      kind: r.kind === 'image' ? 'image' : 'typed',
      ...(r.typed_text !== null ? { typedText: r.typed_text } : {}),
      ...(r.image !== null ? { image: new Uint8Array(r.image) } : {}),
      signedTabIds: JSON.parse(r.signed_tabs_json) as string[],
      adoptedAt: new Date(r.adopted_at),
    } satisfies AdoptedSignature]));
  }

  /**
   * Stores completion results once: the first writer wins and later ones (another instance that
   * sealed the same envelope at the same time) keep the stored bytes, so every mail and
   * download carries the same sealed file.
   */
  async saveResult(envelopeId: string, result: CompletionResult, now: Date): Promise<void> {
    await this.#db.transaction(async (untyped) => {
      const trx = untyped;
      const inserted = await trx.insertInto('envelope_results').values({
        envelope_id: envelopeId,
        combined_with_certificate: buf(result.combinedWithCertificate),
        combined_documents: buf(result.combinedDocuments),
        certificate: buf(result.certificate),
        created_at: now.toISOString(),
      }).onConflict((oc) => oc.column('envelope_id').doNothing()).executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) return;
      for (const [documentId, pdf] of result.signedDocuments) {
        await trx.insertInto('signed_documents').values({ envelope_id: envelopeId, document_id: documentId, pdf: buf(pdf) }).execute();
      }
    });
  }

  async result(envelopeId: string): Promise<Omit<EnvelopeResultRow, 'envelope_id' | 'created_at'> | undefined> {
    return this.#k.selectFrom('envelope_results').select(['combined_with_certificate', 'combined_documents', 'certificate']).where('envelope_id', '=', envelopeId).executeTakeFirst();
  }

  async signedDocument(envelopeId: string, documentId: string): Promise<Uint8Array | undefined> {
    const row = await this.#k.selectFrom('signed_documents').select('pdf').where('envelope_id', '=', envelopeId).where('document_id', '=', documentId).executeTakeFirst();
    return row ? new Uint8Array(row.pdf) : undefined;
  }

  /**
   * Envelopes in the transient `signed` state: the completion worker's queue, oldest first.
   * One whose completion failed waits out its backoff (and, once given up, an operator's retry)
   * outside the queue, so it never holds a place ahead of the others.
   */
  async envelopesAwaitingCompletion(limit: number, now: Date): Promise<{ envelopeId: string; accountId: string }[]> {
    const rows = await this.#k.selectFrom('envelopes as e').leftJoin('completion_failures as f', 'f.envelope_id', 'e.id')
      .select(['e.id', 'e.account_id']).where('e.status', '=', 'signed')
      .where((eb) => eb.or([eb('f.envelope_id', 'is', null), eb('f.next_attempt_at', '<=', now.toISOString())]))
      .orderBy('e.status_changed_at').limit(limit).execute();
    return rows.map((r) => ({ envelopeId: r.id, accountId: r.account_id }));
  }

  async createRecipientView(row: { tokenHash: string; envelopeId: string; recipientId: string; returnUrl: string; createdAt: Date; expiresAt: Date; frame?: SigningFrame }): Promise<void> {
    await this.#k.insertInto('recipient_views').values({ token_hash: row.tokenHash, envelope_id: row.envelopeId, recipient_id: row.recipientId, return_url: row.returnUrl, created_at: row.createdAt.toISOString(), expires_at: row.expiresAt.toISOString(), consumed_at: null, ...frameColumns(row.frame) }).execute();
  }

  /**
   * Redeems a recipient view once: the UPDATE only matches an unconsumed row, so of two
   * concurrent redemptions exactly one gets `redeemed`.
   */
  async redeemRecipientView(tokenHash: string, now: Date): Promise<{ outcome: 'redeemed' | 'expired' | 'used'; envelopeId: string; recipientId: string; returnUrl: string; expiresAt: Date; frame?: SigningFrame } | undefined> {
    const row = await this.#k.selectFrom('recipient_views').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    if (!row) return undefined;
    const frame = frameFromColumns(row);
    const base = { envelopeId: row.envelope_id, recipientId: row.recipient_id, returnUrl: row.return_url, expiresAt: new Date(row.expires_at), ...(frame ? { frame } : {}) };
    if (row.consumed_at !== null) return { ...base, outcome: 'used' };
    if (new Date(row.expires_at) <= now) return { ...base, outcome: 'expired' };
    const res = await this.#k.updateTable('recipient_views').set({ consumed_at: now.toISOString() }).where('token_hash', '=', tokenHash).where('consumed_at', 'is', null).executeTakeFirst();
    return { ...base, outcome: Number(res.numUpdatedRows) === 1 ? 'redeemed' : 'used' };
  }

  /**
   * Deletes recipient views that expired more than `viewRetentionMs` ago (until then a dead URL
   * still gets its own answer rather than "unknown") and signing sessions past their expiry.
   */
  async purgeExpired(now: Date, viewRetentionMs: number): Promise<{ recipientViews: number; signingSessions: number }> {
    const views = await this.#k.deleteFrom('recipient_views').where('expires_at', '<=', new Date(now.getTime() - viewRetentionMs).toISOString()).executeTakeFirst();
    const sessions = await this.#k.deleteFrom('signing_sessions').where('expires_at', '<=', now.toISOString()).executeTakeFirst();
    return { recipientViews: Number(views.numDeletedRows), signingSessions: Number(sessions.numDeletedRows) };
  }

  async createSession(row: { tokenHash: string; envelopeId: string; recipientId: string; returnUrl: string; createdAt: Date; expiresAt: Date; frame?: SigningFrame }): Promise<void> {
    await this.#k.insertInto('signing_sessions').values({ token_hash: row.tokenHash, envelope_id: row.envelopeId, recipient_id: row.recipientId, return_url: row.returnUrl, created_at: row.createdAt.toISOString(), expires_at: row.expiresAt.toISOString(), ...frameColumns(row.frame) }).execute();
  }

  /** A signing session with its envelope's account. */
  async findSession(tokenHash: string): Promise<(SigningSessionRow & { account_id: string }) | undefined> {
    return this.#k.selectFrom('signing_sessions').innerJoin('envelopes', 'envelopes.id', 'signing_sessions.envelope_id')
      .selectAll('signing_sessions').select('envelopes.account_id')
      .where('signing_sessions.token_hash', '=', tokenHash).executeTakeFirst();
  }
}
