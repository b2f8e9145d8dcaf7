import type { Migration } from './migrations.ts';

/**
 * Templates carry every recipient type (domain/templates/template.ts): a role's in-person host,
 * the signer a witness witnesses, what an earlier agent may change and the documents hidden from
 * it, as one JSON object (null: none of them); and the template's enforceSignerVisibility
 * (1, or null for off), which its envelopes take.
 */
export const TEMPLATE_RECIPIENT_DETAILS_MIGRATION: Migration = {
  version: 170,
  name: 'template roles of every recipient type, template document visibility',
  async up(db) {
    await db.schema.alterTable('template_recipients').addColumn('details_json', 'text').execute();
    await db.schema.alterTable('templates').addColumn('enforce_signer_visibility', 'integer').execute();
  },
};
