import type { Migration } from './migrations.ts';

/** A completed envelope whose sealed files wait for more evidence (a TSA that was down). */
export type EvidenceUpgradeRow = {
  envelope_id: string;
  attempts: number;
  last_error: string | null;
  /** Also the claim: an instance working on it moves this forward by a lease first. */
  next_attempt_at: string;
  created_at: string;
};

/**
 * Every sealed file the service handed out, by the SHA-256 of its bytes: what /verify looks up.
 * An upgraded file (B-T, B-LT…) is a new row; the older bytes stay known, since a signer may
 * hold the B-B copy mailed at completion.
 */
export type SealedFileRow = {
  sha256: string;
  envelope_id: string;
  account_id: string;
  /** combined_with_certificate | combined_documents | certificate */
  file: string;
  level: string;
  created_at: string;
};

/** A B-LTA envelope's next renewal: before its last document timestamp's certificate expires. */
export type EvidenceRenewalRow = {
  envelope_id: string;
  /** Also the claim, as for upgrades. */
  renew_at: string;
};

export type EvidenceTables = {
  evidence_upgrades: EvidenceUpgradeRow;
  evidence_renewals: EvidenceRenewalRow;
  sealed_files: SealedFileRow;
};

/** Version 80: the evidence upgrade and renewal queues and the sealed files' hashes (docs/pdf.md, evidence levels). */
export const EVIDENCE_TABLES_MIGRATION: Migration = {
  version: 80,
  name: 'evidence upgrades, renewals and sealed file hashes',
  async up(db) {
    await db.schema.createTable('evidence_upgrades')
      .addColumn('envelope_id', 'text', (c) => c.primaryKey().references('envelopes.id'))
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('last_error', 'text')
      .addColumn('next_attempt_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('evidence_upgrades_due_idx').on('evidence_upgrades').column('next_attempt_at').execute();
    await db.schema.createTable('evidence_renewals')
      .addColumn('envelope_id', 'text', (c) => c.primaryKey().references('envelopes.id'))
      .addColumn('renew_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('evidence_renewals_due_idx').on('evidence_renewals').column('renew_at').execute();
    await db.schema.createTable('sealed_files')
      .addColumn('sha256', 'text', (c) => c.primaryKey())
      .addColumn('envelope_id', 'text', (c) => c.notNull().references('envelopes.id'))
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('file', 'text', (c) => c.notNull())
      .addColumn('level', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sealed_files_envelope_idx').on('sealed_files').column('envelope_id').execute();
  },
};
