import type { Migration } from './migrations.ts';

/**
 * A recipient's language (Signer.emailNotification.supportedLanguage; domain/language/
 * languages.ts): null when they read the brand's or the account's.
 */
export const RECIPIENT_LANGUAGE_MIGRATION: Migration = {
  version: 99,
  name: 'the language of a recipient',
  async up(db) {
    await db.schema.alterTable('envelope_recipients').addColumn('language', 'text').execute();
  },
};
