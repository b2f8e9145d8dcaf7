import type { Migration } from './migrations.ts';

/**
 * How the sender asked for a signer's one-time passcode check (domain/signing/passcode.ts
 * PasscodeAskedAs, as JSON), so listRecipients answers it in the same shape. Null for checks
 * stored before it: store/passcode-tables.ts reads those as their method's usual shape.
 * Numbered apart from the migrations other work adds in parallel.
 */
export const PASSCODE_ASKED_AS_MIGRATION: Migration = {
  version: 215,
  name: 'how the sender asked for a one-time passcode check',
  async up(db) {
    await db.schema.alterTable('recipient_passcodes').addColumn('asked_as_json', 'text').execute();
  },
};
