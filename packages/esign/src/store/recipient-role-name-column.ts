import type { Migration } from './migrations.ts';

/** An envelope recipient's roleName (Signer.roleName): bulk send copies name recipients by it (docs/esign-bulk-send.md). */
export const RECIPIENT_ROLE_NAME_MIGRATION: Migration = {
  version: 151,
  name: 'the role name of an envelope recipient',
  async up(db) {
    await db.schema.alterTable('envelope_recipients').addColumn('role_name', 'text').execute();
  },
};
