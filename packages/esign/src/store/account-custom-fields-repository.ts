import type { AccountCustomFieldStore } from '../domain/account/account-custom-fields.ts';
import type { CustomField, CustomFieldDraft } from '../domain/envelope/custom-fields.ts';
import type { AccountCustomFieldRow } from './account-custom-field-tables.ts';
import type { Db } from './database.ts';

/** Account custom fields over SQLite or PostgreSQL; every statement names the account. */
export class AccountCustomFieldsRepository implements AccountCustomFieldStore {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  async list(accountId: string): Promise<CustomField[]> {
    const rows = await this.#db.kysely.selectFrom('account_custom_fields').selectAll().where('account_id', '=', accountId).orderBy('field_id').execute();
    return rows.map(toField);
  }

  insert(accountId: string, field: CustomFieldDraft, now: Date): Promise<CustomField> {
    return this.#db.transaction(async (trx) => {
      const top = await trx.selectFrom('account_custom_fields').select((eb) => eb.fn.max('field_id').as('n')).where('account_id', '=', accountId).executeTakeFirst();
      const fieldId = Number(top?.n ?? 0) + 1;
      const row = toRow(accountId, { ...field, fieldId: String(fieldId) }, now);
      await trx.insertInto('account_custom_fields').values(row).execute();
      return toField(row);
    });
  }

  async replace(accountId: string, field: CustomField): Promise<boolean> {
    const { account_id: _a, field_id: _f, created_at: _c, ...set } = toRow(accountId, field, new Date(0));
    const result = await this.#db.kysely.updateTable('account_custom_fields').set(set).where('account_id', '=', accountId).where('field_id', '=', Number(field.fieldId)).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async remove(accountId: string, fieldId: string): Promise<boolean> {
    const id = Number(fieldId);
    if (!Number.isSafeInteger(id)) return false;
    const result = await this.#db.kysely.deleteFrom('account_custom_fields').where('account_id', '=', accountId).where('field_id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

function toRow(accountId: string, f: CustomField, now: Date): AccountCustomFieldRow {
  return {
    account_id: accountId, field_id: Number(f.fieldId), kind: f.kind, name: f.name, value: f.value, show: f.show ? 1 : 0, required: f.required ? 1 : 0,
    list_items_json: f.kind === 'list' ? JSON.stringify(f.listItems ?? []) : null, created_at: now.toISOString(),
  };
}

function toField(r: AccountCustomFieldRow): CustomField {
  return {
    fieldId: String(r.field_id), kind: r.kind === 'list' ? 'list' : 'text', name: r.name, value: r.value, show: Number(r.show) === 1, required: Number(r.required) === 1,
    ...(r.kind === 'list' ? { listItems: JSON.parse(r.list_items_json ?? '[]') as string[] } : {}),
  };
}
