import type { Migration } from './migrations.ts';

/**
 * Signer.agentCanEditName / agentCanEditEmail (domain/signing/manage-recipients.ts): 1 when an
 * earlier agent or intermediary may change the name / e-mail the sender gave; null otherwise.
 */
export const RECIPIENT_AGENT_FLAGS_MIGRATION: Migration = {
  version: 100,
  name: 'what an agent may change of a recipient',
  async up(db) {
    await db.schema.alterTable('envelope_recipients').addColumn('agent_can_edit_name', 'integer').execute();
    await db.schema.alterTable('envelope_recipients').addColumn('agent_can_edit_email', 'integer').execute();
  },
};
