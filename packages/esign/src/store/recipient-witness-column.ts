import type { Migration } from './migrations.ts';

/**
 * The signer a witness witnesses (Witness.witnessFor; domain/envelope/witnesses.ts): null for
 * every other recipient. Numbered apart from the migrations other recipient work adds in parallel.
 */
export const RECIPIENT_WITNESS_MIGRATION: Migration = {
  version: 130,
  name: 'the signer a witness witnesses',
  async up(db) {
    await db.schema.alterTable('envelope_recipients').addColumn('witness_for', 'text').execute();
  },
};
