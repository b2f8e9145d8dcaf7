import type { Migration } from './migrations.ts';

/** An envelope's envelopeIdStamping (1, or null for off): its id is stamped on the completed documents. */
export const ENVELOPE_ID_STAMPING_MIGRATION: Migration = {
  version: 153,
  name: 'envelope id stamping',
  async up(db) {
    await db.schema.alterTable('envelopes').addColumn('envelope_id_stamping', 'integer').execute();
  },
};
