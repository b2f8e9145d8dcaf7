import type { Migration } from './migrations.ts';

/**
 * The host of an in-person signer (InPersonSigner.hostName/hostEmail; domain/envelope/
 * recipient-kinds.ts): null for every other recipient.
 */
export const RECIPIENT_HOST_MIGRATION: Migration = {
  version: 86,
  name: 'the host of an in-person signer',
  async up(db) {
    await db.schema.alterTable('envelope_recipients').addColumn('host_name', 'text').execute();
    await db.schema.alterTable('envelope_recipients').addColumn('host_email', 'text').execute();
  },
};
