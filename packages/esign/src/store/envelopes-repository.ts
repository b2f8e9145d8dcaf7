import type { Database } from './schema.ts';
import { supplementColumn, supplementOf } from './document-supplement-columns.ts';
import { removeRecipients, revokeSigning } from './recipient-removal.ts';
import type { Kysely } from 'kysely';
import type { AnchorSpec, Envelope, EnvelopeStatus, Recipient, RecipientStatus, RecipientType } from '../domain/envelope/envelope.ts';
import type { PlacedRadio, PlacedTab } from '../domain/envelope/placed-tab.ts';
import { tabFromJson, tabToJson } from './placed-tab-json.ts';
import { signHereTab } from '../domain/tabs/sign-here-tab.ts';
import type { ConnectMessageBuilder } from '../domain/connect/connect-message.ts';
import type { EnvelopeQuery, EnvelopeStore, EnvelopeWrite, SigningTokenRecord } from '../domain/envelope/ports.ts';
import type { Db } from './database.ts';
import type { EnvelopeCustomFieldRow, EnvelopeDocumentRow, EnvelopeRecipientRow, EnvelopeRow, EnvelopeTabRow } from './envelope-tables.ts';
import { appendAuditEvents } from './audit-events-repository.ts';
import { isSupportedLanguage } from '../domain/language/languages.ts';
import { upsertAdoptedSignature } from './signing-repository.ts';
import { writeConnectDeliveries } from './connect-deliveries-writer.ts';
import { envelopeSortKey, inFolders, matchesSearchText, visibleTo } from './envelope-list-sql.ts';
import { enqueueMails } from './outbox-repository.ts';
import { spendSendAllowance } from './send-allowance.ts';
import { loadEnvelopeNotifications, saveEnvelopeNotification } from './notification-repository.ts';
import { loadEnvelopeWorkflows, saveEnvelopeWorkflow } from './workflow-tables.ts';
import { loadRecipientAccessCodes, saveRecipientAccessCodes } from './access-code-tables.ts';
import { loadRecipientPasscodes, saveRecipientPasscodes } from './passcode-tables.ts';
import { loadEnvelopeBrands, saveEnvelopeBrand } from './brands-repository.ts';
import { loadAccountLooks } from './account-settings-repository.ts';
import { envelopeRelation } from './envelope-relation.ts';
import type { EnvelopeRelation } from '../domain/envelope/envelope-access.ts';

const iso = (d: Date | undefined) => (d === undefined ? null : d.toISOString());

export type EnvelopesRepositoryOptions = {
  /** Renders a Connect message (connect/build-connect-message.ts): the store only writes it. */
  connectMessage: ConnectMessageBuilder;
  /** Told after every commit, with what it wrote for the workers (the server wakes them). */
  onCommitted?: (written: CommittedEffects) => void;
  /** Recipients an account's sends may reach in 24 hours (SEND_ALLOWANCE; store/send-allowance.ts). */
  sendAllowance: number;
};

/** What a committed write left for the background workers. */
export type CommittedEffects = { readonly mails: number; readonly connectDeliveries: number };

/**
 * Envelopes over SQLite or PostgreSQL. Every write is one transaction that also holds the
 * signing tokens and the outbox mails of the change (the transactional outbox): either the
 * envelope changed and its mails will go out, or neither happened.
 */
export class EnvelopesRepository implements EnvelopeStore {
  readonly #db: Db;
  readonly #options: EnvelopesRepositoryOptions;
  constructor(db: Db, options: EnvelopesRepositoryOptions) {
    this.#db = db;
    this.#options = options;
  }

  #tx<T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.#db.transaction((trx) => fn(trx));
  }

  async create(change: EnvelopeWrite, pdfs: ReadonlyMap<string, Uint8Array>): Promise<void> {
    const e = change.envelope;
    const deliveries = await this.#tx(async (trx) => {
      await trx.insertInto('envelopes').values(toEnvelopeRow(e)).execute();
      for (const d of e.documents) {
        const pdf = pdfs.get(d.documentId);
        if (!pdf) throw new TypeError(`no PDF for document ${d.documentId}`);
        const row: EnvelopeDocumentRow = { envelope_id: e.envelopeId, document_id: d.documentId, name: d.name, file_extension: d.fileExtension, doc_order: d.order, page_count: d.pageCount, sha256: d.sha256, supplement_json: supplementColumn(d.supplement), pdf: Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength) };
        await trx.insertInto('envelope_documents').values(row).execute();
      }
      for (const [order, r] of e.recipients.entries()) {
        await trx.insertInto('envelope_recipients').values(toRecipientRow(e.envelopeId, r, order)).execute();
        for (const [i, tab] of r.tabs.entries()) await trx.insertInto('envelope_tabs').values(toTabRow(e.envelopeId, tab, i)).execute();
      }
      if (change.reach) await spendSendAllowance(trx, { accountId: e.accountId, recipients: change.reach.recipients, now: change.reach.at, allowance: this.#options.sendAllowance });
      await writeCustomFields(trx, e);
      await saveEnvelopeBrand(trx, e.envelopeId, e.brand);
      await insertTokens(trx, change.signingTokens);
      await enqueueMails(trx, change.mails, e.statusChangedAt, e.accountId);
      await appendAuditEvents(trx, change.audit ?? []);
      await saveEnvelopeWorkflow(trx, e.envelopeId, e.workflow);
      await saveRecipientAccessCodes(trx, e);
      await saveRecipientPasscodes(trx, e);
      // Reminders, expiration and workflow holds: settings, progress and the scheduler's due time.
      await saveEnvelopeNotification(trx, e);
      return writeConnectDeliveries(trx, { envelope: e, events: change.connectEvents, eventNotification: change.eventNotification, build: this.#options.connectMessage });
    });
    this.#options.onCommitted?.({ mails: change.mails.length, connectDeliveries: deliveries });
  }

  async update(change: EnvelopeWrite): Promise<boolean> {
    const e = change.envelope;
    const outcome = await this.#tx(async (trx) => {
      const { id: _id, account_id: _a, sender_user_id: _s, created_at: _c, ...fields } = toEnvelopeRow(e);
      const res = await trx.updateTable('envelopes').set(fields).where('id', '=', e.envelopeId).where('version', '=', e.version - 1).executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return { saved: false, deliveries: 0 };
      if (change.reach) await spendSendAllowance(trx, { accountId: e.accountId, recipients: change.reach.recipients, now: change.reach.at, allowance: this.#options.sendAllowance });
      for (const [order, r] of e.recipients.entries()) {
        if (change.addedRecipients?.includes(r.recipientId)) {
          await trx.insertInto('envelope_recipients').values(toRecipientRow(e.envelopeId, r, order)).execute();
          for (const [i, tab] of r.tabs.entries()) await trx.insertInto('envelope_tabs').values(toTabRow(e.envelopeId, tab, i)).execute();
          continue;
        }
        const { envelope_id: _e, recipient_id: _r, recipient_id_guid: _g, ...recipientFields } = toRecipientRow(e.envelopeId, r, order);
        await trx.updateTable('envelope_recipients').set(recipientFields).where('envelope_id', '=', e.envelopeId).where('recipient_id', '=', r.recipientId).execute();
        if (change.tabsOf?.includes(r.recipientId)) {
          await trx.deleteFrom('envelope_tabs').where('envelope_id', '=', e.envelopeId).where('recipient_id', '=', r.recipientId).execute();
          for (const [i, tab] of r.tabs.entries()) await trx.insertInto('envelope_tabs').values(toTabRow(e.envelopeId, tab, i)).execute();
        }
      }
      if (change.content) await replaceContent(trx, e, change.content.pdfs);
      if (change.customFieldsChanged) await writeCustomFields(trx, e, { replace: true });
      // Old ways in go before this change's new links are stored (a corrected address gets a fresh one).
      await revokeSigning(trx, e.envelopeId, change.revokeSigningOf ?? []);
      await removeRecipients(trx, e.envelopeId, change.removedRecipients ?? []);
      await insertTokens(trx, change.signingTokens);
      await enqueueMails(trx, change.mails, e.statusChangedAt, e.accountId);
      await appendAuditEvents(trx, change.audit ?? []);
      for (const a of change.adoptedSignatures ?? []) await upsertAdoptedSignature(trx, e.envelopeId, a.recipientId, a.signature);
      await saveEnvelopeWorkflow(trx, e.envelopeId, e.workflow);
      await saveRecipientAccessCodes(trx, e);
      await saveRecipientPasscodes(trx, e);
      // Reminders, expiration and workflow holds: settings, progress and the scheduler's due time.
      await saveEnvelopeNotification(trx, e);
      return { saved: true, deliveries: await writeConnectDeliveries(trx, { envelope: e, events: change.connectEvents, build: this.#options.connectMessage }) };
    });
    if (outcome.saved) this.#options.onCommitted?.({ mails: change.mails.length, connectDeliveries: outcome.deliveries });
    return outcome.saved;
  }

  async find(accountId: string, envelopeId: string): Promise<Envelope | undefined> {
    const k = this.#db.kysely;
    const row = await k.selectFrom('envelopes').selectAll().where('id', '=', envelopeId).where('account_id', '=', accountId).executeTakeFirst();
    if (!row) return undefined;
    return (await this.#hydrate(k, [row]))[0];
  }

  async list(accountId: string, query: EnvelopeQuery): Promise<{ envelopes: Envelope[]; totalSetSize: number }> {
    const k = this.#db.kysely;
    let q = k.selectFrom('envelopes').where('account_id', '=', accountId);
    if (query.fromDate) q = q.where('status_changed_at', '>=', query.fromDate.toISOString());
    if (query.toDate) q = q.where('status_changed_at', '<=', query.toDate.toISOString());
    if (query.statuses) q = q.where('status', 'in', query.statuses.length > 0 ? [...query.statuses] : ['']);
    if (query.envelopeIds) q = q.where('id', 'in', query.envelopeIds.length > 0 ? [...query.envelopeIds] : ['']);
    if (query.searchText !== undefined) q = q.where(matchesSearchText(this.#db.engine, query.searchText));
    if (query.senderUserId !== undefined) q = q.where('sender_user_id', '=', query.senderUserId);
    if (query.visibleTo !== undefined) q = q.where(visibleTo(this.#db.engine, query.visibleTo));
    q = q.where(inFolders(this.#db.engine, query));
    const total = await q.select((eb) => eb.fn.countAll<number | string | bigint>().as('n')).executeTakeFirstOrThrow();
    const direction = query.order ?? 'asc';
    // order_by's key, then the status change time and the id: a total order, so pages never overlap.
    const sort = envelopeSortKey(this.#db.engine, query.orderBy ?? 'status_changed');
    const rows = await q.selectAll()
      .orderBy(sort.expression, (ob) => (sort.nullable ? ob[direction]().nullsLast() : ob[direction]()))
      .orderBy('status_changed_at', direction).orderBy('id', direction)
      .offset(query.startPosition).limit(query.count).execute();
    return { envelopes: await this.#hydrate(k, rows), totalSetSize: Number(total.n) };
  }

  relationOf(accountId: string, envelopeId: string, userId: string): Promise<EnvelopeRelation | undefined> {
    return envelopeRelation(this.#db, accountId, envelopeId, userId);
  }

  async documentPdf(accountId: string, envelopeId: string, documentId: string): Promise<Uint8Array | undefined> {
    const row = await this.#db.kysely.selectFrom('envelope_documents')
      .innerJoin('envelopes', 'envelopes.id', 'envelope_documents.envelope_id')
      .select('envelope_documents.pdf')
      .where('envelopes.account_id', '=', accountId).where('envelope_documents.envelope_id', '=', envelopeId).where('envelope_documents.document_id', '=', documentId)
      .executeTakeFirst();
    return row ? new Uint8Array(row.pdf) : undefined;
  }

  /**
   * The envelope and recipient a signing link's token belongs to (by its SHA-256), for the
   * signing pages; undefined for an unknown token.
   */
  async findSigningToken(tokenHash: string): Promise<{ envelopeId: string; accountId: string; recipientId: string; purpose: string; createdAt: Date; consumedAt?: Date } | undefined> {
    const row = await this.#db.kysely.selectFrom('signing_tokens')
      .innerJoin('envelopes', 'envelopes.id', 'signing_tokens.envelope_id')
      .select(['signing_tokens.envelope_id', 'envelopes.account_id', 'signing_tokens.recipient_id', 'signing_tokens.purpose', 'signing_tokens.created_at', 'signing_tokens.consumed_at'])
      .where('signing_tokens.token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      envelopeId: row.envelope_id,
      accountId: row.account_id,
      recipientId: row.recipient_id,
      purpose: row.purpose,
      createdAt: new Date(row.created_at),
      ...(row.consumed_at !== null ? { consumedAt: new Date(row.consumed_at) } : {}),
    };
  }

  /** Loads documents (without bytes), recipients and tabs of several envelopes in three queries. */
  async #hydrate(k: Kysely<Database>, rows: readonly EnvelopeRow[]): Promise<Envelope[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const [documents, recipients, tabs, notifications, workflows, accessCodes, customFields, passcodes, brands, looks] = await Promise.all([
      k.selectFrom('envelope_documents').select(['envelope_id', 'document_id', 'name', 'file_extension', 'doc_order', 'page_count', 'sha256', 'supplement_json']).where('envelope_id', 'in', ids).orderBy('doc_order').execute(),
      k.selectFrom('envelope_recipients').selectAll().where('envelope_id', 'in', ids).orderBy('recipient_order').execute(),
      k.selectFrom('envelope_tabs').selectAll().where('envelope_id', 'in', ids).orderBy('tab_order').execute(),
      loadEnvelopeNotifications(k, ids),
      loadEnvelopeWorkflows(k, ids),
      loadRecipientAccessCodes(k, ids),
      k.selectFrom('envelope_custom_fields').selectAll().where('envelope_id', 'in', ids).orderBy('field_order').execute(),
      loadRecipientPasscodes(k, ids),
      loadEnvelopeBrands(k, ids),
      loadAccountLooks(k, rows.map((r) => r.account_id)),
    ]);
    return rows.map((row) => ({
      envelopeId: row.id,
      accountId: row.account_id,
      senderUserId: row.sender_user_id,
      status: row.status as EnvelopeStatus,
      emailSubject: row.email_subject,
      ...(row.email_blurb !== null ? { emailBlurb: row.email_blurb } : {}),
      createdAt: new Date(row.created_at),
      statusChangedAt: new Date(row.status_changed_at),
      ...optionalDates({ sentAt: row.sent_at, deliveredAt: row.delivered_at, completedAt: row.completed_at, declinedAt: row.declined_at, voidedAt: row.voided_at, deletedAt: row.deleted_at }),
      ...(row.voided_reason !== null ? { voidedReason: row.voided_reason } : {}),
      documents: documents.filter((d) => d.envelope_id === row.id).map((d) => ({ documentId: d.document_id, name: d.name, fileExtension: d.file_extension, order: Number(d.doc_order), pageCount: Number(d.page_count), sha256: d.sha256, ...supplementOf(d.supplement_json) })),
      recipients: recipients.filter((r) => r.envelope_id === row.id).map((r) => withAuthentication(toRecipient(r, tabs.filter((t) => t.envelope_id === row.id && t.recipient_id === r.recipient_id)), accessCodes.get(row.id)?.get(r.recipient_id), passcodes.get(row.id)?.get(r.recipient_id))),
      ...withNotification(notifications.get(row.id)),
      ...withWorkflow(workflows.get(row.id)),
      ...withCustomFields(customFields.filter((f) => f.envelope_id === row.id)),
      ...(brands.has(row.id) ? { brand: brands.get(row.id) } : {}),
      ...withAccountLook(looks.get(row.account_id)),
      ...(Number(row.enforce_signer_visibility) === 1 ? { enforceSignerVisibility: true } : {}),
      ...(Number(row.envelope_id_stamping) === 1 ? { envelopeIdStamping: true } : {}),
      version: Number(row.version),
    }));
  }
}

function withAuthentication(recipient: Recipient, accessCode: Recipient['accessCode'], passcode: Recipient['passcode']): Recipient {
  return { ...recipient, ...(accessCode !== undefined ? { accessCode } : {}), ...(passcode !== undefined ? { passcode } : {}) };
}

function withAccountLook(look: Envelope['account']): Pick<Envelope, 'account'> {
  return look === undefined || Object.keys(look).length === 0 ? {} : { account: look };
}

function withWorkflow(workflow: Envelope['workflow']): Pick<Envelope, 'workflow'> {
  return workflow === undefined ? {} : { workflow };
}

function withCustomFields(rows: readonly EnvelopeCustomFieldRow[]): Pick<Envelope, 'customFields'> {
  if (rows.length === 0) return {};
  return {
    customFields: rows.map((r) => ({
      fieldId: r.field_id,
      kind: r.kind === 'list' ? ('list' as const) : ('text' as const),
      name: r.name,
      value: r.value,
      show: Number(r.show) === 1,
      required: Number(r.required) === 1,
      ...(r.list_items_json !== null ? { listItems: JSON.parse(r.list_items_json) as string[] } : {}),
    })),
  };
}

/** The envelope's custom fields as it has them (after deleting the stored ones, for a change). */
async function writeCustomFields(trx: Kysely<Database>, e: Envelope, options: { replace?: boolean } = {}): Promise<void> {
  if (options.replace) await trx.deleteFrom('envelope_custom_fields').where('envelope_id', '=', e.envelopeId).execute();
  for (const [i, f] of (e.customFields ?? []).entries()) {
    await trx.insertInto('envelope_custom_fields').values({ envelope_id: e.envelopeId, field_id: f.fieldId, field_order: i, kind: f.kind, name: f.name, value: f.value, show: f.show ? 1 : 0, required: f.required ? 1 : 0, list_items_json: f.listItems ? JSON.stringify(f.listItems) : null }).execute();
  }
}

function withNotification(notification: Envelope['notification']): Pick<Envelope, 'notification'> {
  return notification === undefined ? {} : { notification };
}

function optionalDates<K extends string>(fields: Record<K, string | null>): Partial<Record<K, Date>> {
  const out: Partial<Record<K, Date>> = {};
  for (const [k, v] of Object.entries(fields) as [K, string | null][]) if (v !== null) out[k] = new Date(v);
  return out;
}

/** A draft's documents and tabs made those of `e` (change-draft-documents.ts); PDFs only for the documents in `pdfs`. */
async function replaceContent(trx: Kysely<Database>, e: Envelope, pdfs: ReadonlyMap<string, Uint8Array>): Promise<void> {
  const ids = e.documents.map((d) => d.documentId);
  await trx.deleteFrom('envelope_tabs').where('envelope_id', '=', e.envelopeId).execute();
  await trx.deleteFrom('envelope_documents').where('envelope_id', '=', e.envelopeId).where('document_id', 'not in', ids.length > 0 ? ids : ['']).execute();
  for (const d of e.documents) {
    const meta = { name: d.name, file_extension: d.fileExtension, doc_order: d.order, page_count: d.pageCount, sha256: d.sha256, supplement_json: supplementColumn(d.supplement) };
    const pdf = pdfs.get(d.documentId);
    if (pdf) {
      await trx.deleteFrom('envelope_documents').where('envelope_id', '=', e.envelopeId).where('document_id', '=', d.documentId).execute();
      await trx.insertInto('envelope_documents').values({ envelope_id: e.envelopeId, document_id: d.documentId, ...meta, pdf: Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength) }).execute();
    } else {
      await trx.updateTable('envelope_documents').set(meta).where('envelope_id', '=', e.envelopeId).where('document_id', '=', d.documentId).execute();
    }
  }
  for (const r of e.recipients) for (const [i, tab] of r.tabs.entries()) await trx.insertInto('envelope_tabs').values(toTabRow(e.envelopeId, tab, i)).execute();
}

async function insertTokens(trx: Kysely<Database>, tokens: readonly SigningTokenRecord[]): Promise<void> {
  for (const t of tokens) {
    await trx.insertInto('signing_tokens').values({ token_hash: t.tokenHash, envelope_id: t.envelopeId, recipient_id: t.recipientId, purpose: t.purpose, created_at: t.createdAt.toISOString(), consumed_at: null }).execute();
  }
}

function toEnvelopeRow(e: Envelope): EnvelopeRow {
  return {
    id: e.envelopeId,
    account_id: e.accountId,
    sender_user_id: e.senderUserId,
    status: e.status,
    email_subject: e.emailSubject,
    email_blurb: e.emailBlurb ?? null,
    created_at: e.createdAt.toISOString(),
    status_changed_at: e.statusChangedAt.toISOString(),
    sent_at: iso(e.sentAt),
    delivered_at: iso(e.deliveredAt),
    completed_at: iso(e.completedAt),
    declined_at: iso(e.declinedAt),
    voided_at: iso(e.voidedAt),
    voided_reason: e.voidedReason ?? null,
    version: e.version,
    deleted_at: iso(e.deletedAt),
    enforce_signer_visibility: e.enforceSignerVisibility ? 1 : null,
    envelope_id_stamping: e.envelopeIdStamping ? 1 : null,
  };
}

function toRecipientRow(envelopeId: string, r: Recipient, order: number): EnvelopeRecipientRow {
  return {
    envelope_id: envelopeId,
    recipient_id: r.recipientId,
    recipient_id_guid: r.recipientIdGuid,
    recipient_order: order,
    type: r.type,
    email: r.email,
    name: r.name,
    routing_order: r.routingOrder,
    status: r.status,
    client_user_id: r.clientUserId ?? null,
    role_name: r.roleName ?? null,
    host_name: r.host?.name ?? null,
    host_email: r.host?.email ?? null,
    witness_for: r.witnessFor ?? null,
    language: r.language ?? null,
    agent_can_edit_name: r.agentCanEditName === true ? 1 : null,
    agent_can_edit_email: r.agentCanEditEmail === true ? 1 : null,
    excluded_documents_json: r.excludedDocuments && r.excludedDocuments.length > 0 ? JSON.stringify(r.excludedDocuments) : null,
    sent_at: iso(r.sentAt),
    delivered_at: iso(r.deliveredAt),
    signed_at: iso(r.signedAt),
    completed_at: iso(r.completedAt),
    declined_at: iso(r.declinedAt),
    declined_reason: r.declinedReason ?? null,
  };
}

function toTabRow(envelopeId: string, t: PlacedTab, order: number): EnvelopeTabRow {
  const tab = t.tab;
  return {
    tab_id: t.tabId,
    envelope_id: envelopeId,
    recipient_id: t.recipientId,
    document_id: t.documentId,
    tab_order: order,
    page_number: t.pageNumber,
    x_position: t.xPosition,
    y_position: t.yPosition,
    anchor_json: tab.type !== 'radioGroup' && tab.place.kind === 'anchor' ? JSON.stringify(tab.place.anchor) : null,
    tab_label: (tab.type === 'radioGroup' ? tab.groupName : tab.tabLabel) ?? null,
    name: tab.name ?? null,
    optional: tab.required ? 0 : 1,
    scale_value: (tab.type === 'signHere' || tab.type === 'initialHere' || tab.type === 'signerAttachment') && tab.scaleValue !== undefined ? tab.scaleValue : null,
    tab_json: tabToJson(tab),
    value: t.value,
    radios_json: t.radios ? JSON.stringify(t.radios) : null,
  };
}

/** A stored row as a PlacedTab; a row from before the tab family (no tab_json) is a signHere tab. */
function toPlacedTab(t: EnvelopeTabRow): PlacedTab {
  const spot = { documentId: t.document_id, pageNumber: Number(t.page_number), xPosition: Number(t.x_position), yPosition: Number(t.y_position) };
  const tab = t.tab_json !== null ? tabFromJson(t.tab_json) : signHereTab({
    ...spot,
    ...(t.anchor_json !== null ? { anchor: JSON.parse(t.anchor_json) as AnchorSpec } : {}),
    ...(t.tab_label !== null ? { tabLabel: t.tab_label } : {}),
    ...(t.name !== null ? { name: t.name } : {}),
    optional: Number(t.optional) === 1,
    ...(t.scale_value !== null ? { scaleValue: Number(t.scale_value) } : {}),
  });
  return { ...spot, tabId: t.tab_id, recipientId: t.recipient_id, tab, ...(t.radios_json !== null ? { radios: JSON.parse(t.radios_json) as PlacedRadio[] } : {}), value: t.value ?? '' };
}

function toRecipient(r: EnvelopeRecipientRow, tabs: readonly EnvelopeTabRow[]): Recipient {
  return {
    recipientId: r.recipient_id,
    recipientIdGuid: r.recipient_id_guid,
    type: r.type as RecipientType,
    email: r.email,
    name: r.name,
    routingOrder: Number(r.routing_order),
    status: r.status as RecipientStatus,
    ...(r.client_user_id !== null ? { clientUserId: r.client_user_id } : {}),
    ...(r.role_name !== null && r.role_name !== undefined ? { roleName: r.role_name } : {}),
    ...(r.host_name !== null && r.host_email !== null ? { host: { name: r.host_name, email: r.host_email } } : {}),
    ...(r.witness_for !== null ? { witnessFor: r.witness_for } : {}),
    ...(r.language !== null && isSupportedLanguage(r.language) ? { language: r.language } : {}),
    ...(Number(r.agent_can_edit_name) === 1 ? { agentCanEditName: true } : {}),
    ...(Number(r.agent_can_edit_email) === 1 ? { agentCanEditEmail: true } : {}),
    ...optionalDates({ sentAt: r.sent_at, deliveredAt: r.delivered_at, signedAt: r.signed_at, completedAt: r.completed_at, declinedAt: r.declined_at }),
    ...(r.declined_reason !== null ? { declinedReason: r.declined_reason } : {}),
    ...(r.excluded_documents_json !== null && r.excluded_documents_json !== undefined ? { excludedDocuments: JSON.parse(r.excluded_documents_json) as string[] } : {}),
    tabs: tabs.map(toPlacedTab),
  };
}
