import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from './database.ts';
import type { EvidenceRenewalRow, EvidenceUpgradeRow } from './evidence-tables.ts';
import type { Database } from './schema.ts';

/** The three sealed files of a completed envelope, as envelope_results holds them. */
export type SealedFiles = {
  readonly combinedWithCertificate: Uint8Array;
  readonly combinedDocuments: Uint8Array;
  readonly certificate: Uint8Array;
};

/** A sealed file /verify found by its hash. */
export type SealedFileMatch = { envelopeId: string; accountId: string; file: string; level: string; createdAt: Date };

const buf = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
export const sha256Of = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

function hashRows(envelopeId: string, accountId: string, files: SealedFiles, level: string, now: Date) {
  const at = now.toISOString();
  return [
    { sha256: sha256Of(files.combinedWithCertificate), envelope_id: envelopeId, account_id: accountId, file: 'combined_with_certificate', level, created_at: at },
    { sha256: sha256Of(files.combinedDocuments), envelope_id: envelopeId, account_id: accountId, file: 'combined_documents', level, created_at: at },
    { sha256: sha256Of(files.certificate), envelope_id: envelopeId, account_id: accountId, file: 'certificate', level, created_at: at },
  ];
}

async function upsertRenewal(trx: Kysely<Database>, envelopeId: string, renewAt: Date): Promise<void> {
  await trx.insertInto('evidence_renewals').values({ envelope_id: envelopeId, renew_at: renewAt.toISOString() })
    .onConflict((oc) => oc.column('envelope_id').doUpdateSet({ renew_at: renewAt.toISOString() })).execute();
}

/** The evidence upgrade and renewal queues, and the hashes of every sealed file handed out. */
export class EvidenceRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  get #k(): Kysely<Database> {
    return this.#db.kysely;
  }

  /**
   * Records a completed envelope's sealed files (idempotent) and, when they are below the
   * configured level, queues their upgrade for `nextAttemptAt`; both or neither.
   */
  async track(envelopeId: string, accountId: string, files: SealedFiles, level: string, now: Date, upgradeAt: Date | undefined, renewAt?: Date): Promise<void> {
    await this.#db.transaction(async (trx) => {
      for (const row of hashRows(envelopeId, accountId, files, level, now)) {
        await trx.insertInto('sealed_files').values(row).onConflict((oc) => oc.column('sha256').doNothing()).execute();
      }
      if (upgradeAt) {
        await trx.insertInto('evidence_upgrades').values({ envelope_id: envelopeId, attempts: 0, last_error: null, next_attempt_at: upgradeAt.toISOString(), created_at: now.toISOString() })
          .onConflict((oc) => oc.column('envelope_id').doNothing()).execute();
      }
      if (renewAt) await upsertRenewal(trx, envelopeId, renewAt);
    });
  }

  /** Upgrades whose time has come, oldest first. */
  async due(now: Date, limit: number): Promise<(EvidenceUpgradeRow & { account_id: string })[]> {
    return this.#k.selectFrom('evidence_upgrades as u').innerJoin('envelopes as e', 'e.id', 'u.envelope_id').selectAll('u').select('e.account_id')
      .where('u.next_attempt_at', '<=', now.toISOString()).orderBy('u.next_attempt_at').limit(limit).execute();
  }

  /**
   * Takes an upgrade for `leaseUntil`: true only for the one instance whose conditional update
   * matched the row as it read it, so two instances never work on the same envelope at once.
   */
  async claim(row: EvidenceUpgradeRow, leaseUntil: Date): Promise<boolean> {
    const res = await this.#k.updateTable('evidence_upgrades').set({ next_attempt_at: leaseUntil.toISOString() })
      .where('envelope_id', '=', row.envelope_id).where('next_attempt_at', '=', row.next_attempt_at).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** The envelope's stored sealed files. */
  async files(envelopeId: string): Promise<SealedFiles | undefined> {
    const row = await this.#k.selectFrom('envelope_results').select(['combined_with_certificate', 'combined_documents', 'certificate']).where('envelope_id', '=', envelopeId).executeTakeFirst();
    return row ? { combinedWithCertificate: new Uint8Array(row.combined_with_certificate), combinedDocuments: new Uint8Array(row.combined_documents), certificate: new Uint8Array(row.certificate) } : undefined;
  }

  /**
   * The upgraded files replace the stored ones and their hashes become known; when `done`, the
   * queue entry goes too. One transaction.
   */
  async saveUpgrade(envelopeId: string, accountId: string, files: SealedFiles, level: string, now: Date, done: boolean, renewAt?: Date): Promise<void> {
    await this.#db.transaction(async (trx) => {
      await trx.updateTable('envelope_results').set({
        combined_with_certificate: buf(files.combinedWithCertificate),
        combined_documents: buf(files.combinedDocuments),
        certificate: buf(files.certificate),
      }).where('envelope_id', '=', envelopeId).execute();
      for (const row of hashRows(envelopeId, accountId, files, level, now)) {
        await trx.insertInto('sealed_files').values(row).onConflict((oc) => oc.column('sha256').doNothing()).execute();
      }
      if (done) await trx.deleteFrom('evidence_upgrades').where('envelope_id', '=', envelopeId).execute();
      if (renewAt) await upsertRenewal(trx, envelopeId, renewAt);
    });
  }

  /** B-LTA envelopes whose renewal is due, oldest first. */
  async dueRenewals(now: Date, limit: number): Promise<(EvidenceRenewalRow & { account_id: string })[]> {
    return this.#k.selectFrom('evidence_renewals as r').innerJoin('envelopes as e', 'e.id', 'r.envelope_id').selectAll('r').select('e.account_id')
      .where('r.renew_at', '<=', now.toISOString()).orderBy('r.renew_at').limit(limit).execute();
  }

  /** Takes a renewal for `leaseUntil`; true for exactly one instance (as {@link claim}). */
  async claimRenewal(row: EvidenceRenewalRow, leaseUntil: Date): Promise<boolean> {
    const res = await this.#k.updateTable('evidence_renewals').set({ renew_at: leaseUntil.toISOString() })
      .where('envelope_id', '=', row.envelope_id).where('renew_at', '=', row.renew_at).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** The next renewal (after one, or after a failure). */
  async renewAt(envelopeId: string, at: Date): Promise<void> {
    await this.#k.updateTable('evidence_renewals').set({ renew_at: at.toISOString() }).where('envelope_id', '=', envelopeId).execute();
  }

  async renewal(envelopeId: string): Promise<EvidenceRenewalRow | undefined> {
    return this.#k.selectFrom('evidence_renewals').selectAll().where('envelope_id', '=', envelopeId).executeTakeFirst();
  }

  async recordFailure(envelopeId: string, error: string, nextAttemptAt: (attempts: number) => Date): Promise<void> {
    await this.#db.transaction(async (trx) => {
      const row = await trx.selectFrom('evidence_upgrades').select('attempts').where('envelope_id', '=', envelopeId).executeTakeFirst();
      if (!row) return;
      const attempts = Number(row.attempts) + 1;
      await trx.updateTable('evidence_upgrades').set({ attempts, last_error: error.slice(0, 2000), next_attempt_at: nextAttemptAt(attempts).toISOString() })
        .where('envelope_id', '=', envelopeId).execute();
    });
  }

  async pending(envelopeId: string): Promise<EvidenceUpgradeRow | undefined> {
    return this.#k.selectFrom('evidence_upgrades').selectAll().where('envelope_id', '=', envelopeId).executeTakeFirst();
  }

  /** A sealed file by the SHA-256 of its bytes (lower-case hex). */
  async findBySha256(sha256: string): Promise<SealedFileMatch | undefined> {
    const row = await this.#k.selectFrom('sealed_files').selectAll().where('sha256', '=', sha256).executeTakeFirst();
    return row ? { envelopeId: row.envelope_id, accountId: row.account_id, file: row.file, level: row.level, createdAt: new Date(row.created_at) } : undefined;
  }
}
