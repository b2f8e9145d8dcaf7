import type { Migration } from './migrations.ts';

/**
 * Account custom fields (domain/account/account-custom-fields.ts): fieldIds are numbers
 * counted per account, as DocuSign's are numeric. Same conventions as schema.ts.
 */
export type AccountCustomFieldRow = {
  account_id: string;
  field_id: number;
  kind: string;
  name: string;
  value: string;
  show: number;
  required: number;
  list_items_json: string | null;
  created_at: string;
};

export type AccountCustomFieldTables = { account_custom_fields: AccountCustomFieldRow };

export const ACCOUNT_CUSTOM_FIELDS_MIGRATION: Migration = {
  version: 152,
  name: 'account custom fields',
  async up(db) {
    await db.schema.createTable('account_custom_fields')
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('field_id', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('show', 'integer', (c) => c.notNull())
      .addColumn('required', 'integer', (c) => c.notNull())
      .addColumn('list_items_json', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('account_custom_fields_pk', ['account_id', 'field_id'])
      .execute();
  },
};
