import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { FolderType } from '../domain/envelope/folders.ts';
import type { EnvelopeOrderBy, EnvelopeQuery } from '../domain/envelope/ports.ts';
import type { Engine } from './migrations.ts';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';

/**
 * Lower case for A-Z only. SQLite's lower() folds ASCII only (it is built without ICU), so
 * PostgreSQL folds the same letters with translate() rather than its Unicode lower(): a search
 * or a sort answers the same on both engines ("É" and "é" stay distinct on both).
 */
export function foldAscii(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

function folded(engine: Engine, value: RawBuilder<unknown>): RawBuilder<string> {
  return engine === 'postgres' ? sql<string>`translate(${value}, ${UPPER}, ${LOWER})` : sql<string>`lower(${value})`;
}

/**
 * A text sort key: ASCII-folded, then compared byte by byte. SQLite's default collation is
 * binary; PostgreSQL's follows the database locale (en_US ignores spaces and punctuation at
 * first), so it is pinned to "C", which compares UTF-8 bytes as SQLite does.
 */
function textKey(engine: Engine, value: RawBuilder<unknown>): RawBuilder<string> {
  return engine === 'postgres' ? sql<string>`${folded(engine, value)} collate "C"` : folded(engine, value);
}

/**
 * listStatusChanges' search_text: the subject, or any recipient's name or email, contains the
 * text (ASCII case folded; LIKE's own wildcards in the text are escaped, so they match
 * themselves). The recipients' part is one EXISTS per envelope on their primary key.
 */
export function matchesSearchText(engine: Engine, text: string): RawBuilder<SqlBool> {
  const pattern = `%${foldAscii(text).replace(/[!%_]/g, '!$&')}%`;
  const like = (column: string) => sql<SqlBool>`${folded(engine, sql.ref(column))} like ${pattern} escape '!'`;
  return sql<SqlBool>`(${like('envelopes.email_subject')} or exists (select 1 from envelope_recipients r where r.envelope_id = envelopes.id and (${like('r.name')} or ${like('r.email')})))`;
}

/** The expression listStatusChanges sorts by, and whether it can be NULL (those come last). */
export type EnvelopeSortKey = { readonly expression: RawBuilder<unknown>; readonly nullable: boolean };

/** The sort key of an order_by (parse-status-changes-query.ts maps DocuSign's names to ours). */
export function envelopeSortKey(engine: Engine, orderBy: EnvelopeOrderBy): EnvelopeSortKey {
  const column = (name: string, nullable = false): EnvelopeSortKey => ({ expression: sql.ref(`envelopes.${name}`), nullable });
  switch (orderBy) {
    case 'status_changed':
      return column('status_changed_at');
    case 'created':
      return column('created_at');
    // Timestamps are ISO-8601 UTC text of one length (schema.ts): text order is time order.
    case 'sent':
      return column('sent_at', true);
    case 'completed':
      return column('completed_at', true);
    case 'subject':
      return { expression: textKey(engine, sql.ref('envelopes.email_subject')), nullable: false };
    case 'status':
      return { expression: textKey(engine, sql.ref('envelopes.status')), nullable: false };
    case 'user_name':
      // The sender's name (users.name), as DocuSign's senderName.
      return { expression: textKey(engine, sql`(select u.name from users u where u.id = envelopes.sender_user_id)`), nullable: false };
    case 'expire':
      // reminders/notification-schedule.ts expiresAt: sent + expireAfter days; none for a draft.
      return {
        expression: engine === 'postgres'
          ? sql`(select cast(envelopes.sent_at as timestamptz) + n.expire_after_days * interval '1 day' from envelope_notifications n where n.envelope_id = envelopes.id)`
          : sql`(select julianday(envelopes.sent_at) + n.expire_after_days from envelope_notifications n where n.envelope_id = envelopes.id)`,
        nullable: true,
      };
  }
}

/** `column` contains `text`, ASCII case folded, LIKE's wildcards in the text matching themselves (listTemplates' search_text). */
export function containsFolded(engine: Engine, column: string, text: string): RawBuilder<SqlBool> {
  const pattern = `%${foldAscii(text).replace(/[!%_]/g, '!$&')}%`;
  return sql<SqlBool>`${folded(engine, sql.ref(column))} like ${pattern} escape '!'`;
}

/**
 * The folder filter of a listing (domain/envelope/folders.ts: folders follow from the
 * envelope): the recycle bin holds the deleted ones; Draft and Sent Items the others by status;
 * Inbox those with a recipient of the caller's e-mail (ASCII case folded, as logins compare).
 * With no folder and no envelope ids, everything but the recycle bin.
 */
export function inFolders(engine: Engine, query: Pick<EnvelopeQuery, 'folders' | 'envelopeIds' | 'viewerUserId'>): RawBuilder<SqlBool> {
  if (query.folders === undefined) return query.envelopeIds !== undefined ? sql<SqlBool>`1 = 1` : sql<SqlBool>`envelopes.deleted_at is null`;
  const one = (folder: FolderType): RawBuilder<SqlBool> => {
    switch (folder) {
      case 'recyclebin':
        return sql<SqlBool>`envelopes.deleted_at is not null`;
      case 'draft':
        return sql<SqlBool>`(envelopes.deleted_at is null and envelopes.status = 'created')`;
      case 'sentitems':
        return sql<SqlBool>`(envelopes.deleted_at is null and envelopes.status <> 'created')`;
      case 'inbox':
        return sql<SqlBool>`(envelopes.deleted_at is null and ${receivedBy(engine, query.viewerUserId ?? '')})`;
    }
  };
  if (query.folders.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`(${sql.join(query.folders.map(one), sql` or `)})`;
}

/** The envelope has a recipient of the user's e-mail (ASCII case folded, as logins compare): it is in their inbox. */
export function receivedBy(engine: Engine, userId: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from envelope_recipients r, users u where u.id = ${userId} and r.envelope_id = envelopes.id and ${folded(engine, sql.ref('r.email'))} = ${folded(engine, sql.ref('u.email'))})`;
}

/** The envelopes a member whose profile does not reach the account's sees: sent or received (domain/envelope/envelope-access.ts). */
export function visibleTo(engine: Engine, userId: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`(envelopes.sender_user_id = ${userId} or ${receivedBy(engine, userId)})`;
}
