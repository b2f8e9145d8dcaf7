import type { RecipientType } from '../domain/envelope/envelope.ts';
import type { Template } from '../domain/templates/template.ts';
import type { TemplateQuery, TemplateStore } from '../domain/templates/template-ports.ts';
import type { Kysely } from 'kysely';
import type { Db } from './database.ts';
import type { Database } from './schema.ts';
import { containsFolded } from './envelope-list-sql.ts';
import type { TemplateEnvelopeDefaultsRow, TemplateRow } from './template-tables.ts';
import type { CustomField } from '../domain/envelope/custom-fields.ts';
import type { NotificationSettings } from '../domain/notification/envelope-notification.ts';
import { placedTabsFromJson, placedTabsToJson } from './placed-tab-json.ts';
import { roleDetailsFromJson, roleDetailsToJson } from './template-role-details.ts';

/**
 * Templates over SQLite or PostgreSQL. Every read and write names the account: a template id
 * of another account is simply not found. A template and its documents and roles are written
 * in one transaction; its children go with it on delete (explicitly, so SQLite needs no
 * foreign-key pragma for it).
 */
export class TemplatesRepository implements TemplateStore {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  async create(t: Template, pdfs: ReadonlyMap<string, Uint8Array>): Promise<void> {
    await this.#db.transaction(async (trx) => {
      await trx.insertInto('templates').values(toTemplateRow(t)).execute();
      for (const d of t.documents) {
        const pdf = pdfs.get(d.documentId);
        if (!pdf) throw new TypeError(`no PDF for template document ${d.documentId}`);
        await trx.insertInto('template_documents').values({ template_id: t.templateId, document_id: d.documentId, name: d.name, file_extension: d.fileExtension, doc_order: d.order, page_count: d.pageCount, sha256: d.sha256, pdf: Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength) }).execute();
      }
      await insertRoles(trx, t);
      await writeTemplateBrand(trx, t);
      await writeEnvelopeDefaults(trx, t);
    });
  }

  async find(accountId: string, templateId: string): Promise<Template | undefined> {
    const row = await this.#db.kysely.selectFrom('templates').selectAll().where('account_id', '=', accountId).where('id', '=', templateId).executeTakeFirst();
    return row ? (await this.#hydrate([row]))[0] : undefined;
  }

  async list(accountId: string, query: TemplateQuery): Promise<{ templates: Template[]; totalSetSize: number }> {
    const k = this.#db.kysely;
    let base = k.selectFrom('templates').where('account_id', '=', accountId);
    if (query.searchText !== undefined && query.searchText !== '') base = base.where(containsFolded(this.#db.engine, 'templates.name', query.searchText));
    if (query.owner) base = base.where('owner_user_id', query.owner.mine ? '=' : '!=', query.owner.userId);
    if (query.templateIds) base = base.where('id', 'in', query.templateIds.length > 0 ? [...query.templateIds] : ['']);
    const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const direction = query.order ?? 'asc';
    // The key, then the id: a total order, so pages never overlap.
    const rows = await base.selectAll().orderBy(query.orderBy === 'modified' ? 'last_modified_at' : 'name', direction).orderBy('id', direction).limit(query.count).offset(query.startPosition).execute();
    return { templates: await this.#hydrate(rows), totalSetSize: Number(total.n) };
  }

  async update(t: Template): Promise<boolean> {
    const { id: _id, account_id: _a, owner_user_id: _o, created_at: _c, ...fields } = toTemplateRow(t);
    return this.#db.transaction(async (trx) => {
      const res = await trx.updateTable('templates').set(fields).where('account_id', '=', t.accountId).where('id', '=', t.templateId).executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return false;
      await writeTemplateBrand(trx, t);
      await writeEnvelopeDefaults(trx, t);
      return true;
    });
  }

  async replaceContent(t: Template, pdfs: ReadonlyMap<string, Uint8Array>, expectedLastModified: Date): Promise<boolean> {
    return this.#db.transaction(async (trx) => {
      const { id: _id, account_id: _a, owner_user_id: _o, created_at: _c, ...fields } = toTemplateRow(t);
      const res = await trx.updateTable('templates').set(fields).where('account_id', '=', t.accountId).where('id', '=', t.templateId).where('last_modified_at', '=', expectedLastModified.toISOString()).executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return false;
      const kept = t.documents.map((d) => d.documentId);
      await trx.deleteFrom('template_documents').where('template_id', '=', t.templateId).where((eb) => (kept.length > 0 ? eb('document_id', 'not in', kept) : eb.lit(true))).execute();
      for (const d of t.documents) {
        const pdf = pdfs.get(d.documentId);
        if (pdf) {
          await trx.deleteFrom('template_documents').where('template_id', '=', t.templateId).where('document_id', '=', d.documentId).execute();
          await trx.insertInto('template_documents').values({ template_id: t.templateId, document_id: d.documentId, name: d.name, file_extension: d.fileExtension, doc_order: d.order, page_count: d.pageCount, sha256: d.sha256, pdf: Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength) }).execute();
        } else {
          await trx.updateTable('template_documents').set({ name: d.name, doc_order: d.order }).where('template_id', '=', t.templateId).where('document_id', '=', d.documentId).execute();
        }
      }
      await trx.deleteFrom('template_recipients').where('template_id', '=', t.templateId).execute();
      await insertRoles(trx, t);
      await writeEnvelopeDefaults(trx, t);
      return true;
    });
  }

  async delete(accountId: string, templateId: string): Promise<boolean> {
    return this.#db.transaction(async (trx) => {
      const owned = await trx.selectFrom('templates').select('id').where('account_id', '=', accountId).where('id', '=', templateId).executeTakeFirst();
      if (!owned) return false;
      await trx.deleteFrom('template_recipients').where('template_id', '=', templateId).execute();
      await trx.deleteFrom('template_documents').where('template_id', '=', templateId).execute();
      await trx.deleteFrom('template_brands').where('template_id', '=', templateId).execute();
      await trx.deleteFrom('template_envelope_defaults').where('template_id', '=', templateId).execute();
      await trx.deleteFrom('templates').where('id', '=', templateId).execute();
      return true;
    });
  }

  async documentPdf(accountId: string, templateId: string, documentId: string): Promise<Uint8Array | undefined> {
    const row = await this.#db.kysely.selectFrom('template_documents').innerJoin('templates', 'templates.id', 'template_documents.template_id')
      .select('template_documents.pdf').where('templates.account_id', '=', accountId).where('template_documents.template_id', '=', templateId).where('template_documents.document_id', '=', documentId).executeTakeFirst();
    return row ? new Uint8Array(row.pdf) : undefined;
  }

  async #hydrate(rows: readonly TemplateRow[]): Promise<Template[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const k = this.#db.kysely;
    const [documents, recipients, brands, defaults] = await Promise.all([
      k.selectFrom('template_documents').select(['template_id', 'document_id', 'name', 'file_extension', 'doc_order', 'page_count', 'sha256']).where('template_id', 'in', ids).orderBy('doc_order').execute(),
      k.selectFrom('template_recipients').selectAll().where('template_id', 'in', ids).orderBy('recipient_order').execute(),
      k.selectFrom('template_brands').selectAll().where('template_id', 'in', ids).execute(),
      k.selectFrom('template_envelope_defaults').selectAll().where('template_id', 'in', ids).execute(),
    ]);
    return rows.map((row) => ({
      templateId: row.id,
      accountId: row.account_id,
      ownerUserId: row.owner_user_id,
      name: row.name,
      ...(row.description !== null ? { description: row.description } : {}),
      emailSubject: row.email_subject,
      ...(row.email_blurb !== null ? { emailBlurb: row.email_blurb } : {}),
      shared: Number(row.shared) === 1,
      ...(row.enforce_signer_visibility !== null && Number(row.enforce_signer_visibility) === 1 ? { enforceSignerVisibility: true } : {}),
      ...brandOf(brands.find((b) => b.template_id === row.id)),
      ...envelopeDefaultsOf(defaults.find((d) => d.template_id === row.id)),
      createdAt: new Date(row.created_at),
      lastModifiedAt: new Date(row.last_modified_at),
      documents: documents.filter((d) => d.template_id === row.id).map((d) => ({ documentId: d.document_id, name: d.name, fileExtension: d.file_extension, order: Number(d.doc_order), pageCount: Number(d.page_count), sha256: d.sha256 })),
      roles: recipients.filter((r) => r.template_id === row.id).map((r) => ({
        recipientId: r.recipient_id,
        ...(r.role_name !== null ? { roleName: r.role_name } : {}),
        type: r.type as RecipientType,
        name: r.name,
        email: r.email,
        routingOrder: Number(r.routing_order),
        ...(r.client_user_id !== null ? { clientUserId: r.client_user_id } : {}),
        ...roleDetailsFromJson(r.details_json),
        tabs: placedTabsFromJson(r.tabs_json),
      })),
    }));
  }
}

function brandOf(row: { brand_id: string } | undefined): Pick<Template, 'brandId'> {
  return row ? { brandId: row.brand_id } : {};
}

function envelopeDefaultsOf(row: TemplateEnvelopeDefaultsRow | undefined): Pick<Template, 'customFields' | 'notification'> {
  if (!row) return {};
  return {
    ...(row.custom_fields_json !== null ? { customFields: JSON.parse(row.custom_fields_json) as CustomField[] } : {}),
    ...(row.notification_json !== null ? { notification: JSON.parse(row.notification_json) as NotificationSettings } : {}),
  };
}

/** The custom fields and notification settings its envelopes start with, as the template has them. */
async function writeEnvelopeDefaults(trx: Kysely<Database>, t: Template): Promise<void> {
  await trx.deleteFrom('template_envelope_defaults').where('template_id', '=', t.templateId).execute();
  const customFields = t.customFields && t.customFields.length > 0 ? JSON.stringify(t.customFields) : null;
  const notification = t.notification ? JSON.stringify(t.notification) : null;
  if (customFields !== null || notification !== null) await trx.insertInto('template_envelope_defaults').values({ template_id: t.templateId, custom_fields_json: customFields, notification_json: notification }).execute();
}

/** The template's brand reference as it has it. */
async function writeTemplateBrand(trx: Kysely<Database>, t: Template): Promise<void> {
  await trx.deleteFrom('template_brands').where('template_id', '=', t.templateId).execute();
  if (t.brandId !== undefined) await trx.insertInto('template_brands').values({ template_id: t.templateId, brand_id: t.brandId }).execute();
}

async function insertRoles(trx: Kysely<Database>, t: Template): Promise<void> {
  for (const [order, r] of t.roles.entries()) {
    await trx.insertInto('template_recipients').values({
      template_id: t.templateId,
      recipient_id: r.recipientId,
      recipient_order: order,
      role_name: r.roleName ?? null,
      type: r.type,
      name: r.name,
      email: r.email,
      routing_order: r.routingOrder,
      client_user_id: r.clientUserId ?? null,
      tabs_json: placedTabsToJson(r.tabs),
      details_json: roleDetailsToJson(r),
    }).execute();
  }
}

function toTemplateRow(t: Template): TemplateRow {
  return {
    id: t.templateId,
    account_id: t.accountId,
    owner_user_id: t.ownerUserId,
    name: t.name,
    description: t.description ?? null,
    email_subject: t.emailSubject,
    email_blurb: t.emailBlurb ?? null,
    shared: t.shared ? 1 : 0,
    enforce_signer_visibility: t.enforceSignerVisibility ? 1 : null,
    created_at: t.createdAt.toISOString(),
    last_modified_at: t.lastModifiedAt.toISOString(),
  };
}
