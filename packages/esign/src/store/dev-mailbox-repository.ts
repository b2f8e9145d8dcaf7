import type { Database } from './schema.ts';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { MailAttachment, MailMessage } from '../domain/mail/mail-message.ts';
import type { Db } from './database.ts';
import type { DevMailboxRow } from './envelope-tables.ts';

/** A message in the dev mailbox. */
export type DevMailboxMessage = { id: string; receivedAt: string; messageId?: string; message: MailMessage };

/** A text message in the development text outbox. */
export type DevTextMessage = { id: string; sentAt: string; channel: string; to: string; body: string; envelopeId?: string };

/** The development mailbox: mails "delivered" into the database when SMTP_URL is unset. */
export class DevMailboxRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  get #k(): Kysely<Database> {
    return this.#db.kysely;
  }

  /**
   * Stores a delivered message once per Message-ID: a second copy of the same outbox row (sent
   * again after a crash between delivery and its record) is dropped, as a mail store drops a
   * duplicate, and the first copy's id is returned.
   */
  async add(message: MailMessage, messageId: string, now: Date): Promise<string> {
    const id = randomUUID();
    const inserted = await this.#k.insertInto('dev_mailbox').values({
      id,
      received_at: now.toISOString(),
      kind: message.kind,
      envelope_id: message.envelopeId ?? null,
      to_email: message.to.email,
      to_name: message.to.name,
      subject: message.subject,
      text_body: message.text,
      html_body: message.html,
      attachments_json: JSON.stringify(message.attachments ?? []),
      message_id: messageId,
    }).onConflict((oc) => oc.column('message_id').doNothing()).returning('id').executeTakeFirst();
    if (inserted) return inserted.id;
    const first = await this.#k.selectFrom('dev_mailbox').select('id').where('message_id', '=', messageId).executeTakeFirstOrThrow();
    return first.id;
  }

  /** Newest first. */
  async list(limit = 200): Promise<DevMailboxMessage[]> {
    const rows = await this.#k.selectFrom('dev_mailbox').selectAll().orderBy('received_at', 'desc').orderBy('id').limit(limit).execute();
    return rows.map(toMessage);
  }

  /** A text message or call the development text sender kept (mail/dev-text-outbox.ts). */
  async addText(message: { channel: string; to: string; body: string; envelopeId?: string }, now: Date): Promise<void> {
    await this.#k.insertInto('dev_text_messages').values({ id: randomUUID(), sent_at: now.toISOString(), channel: message.channel, to_number: message.to, body: message.body, envelope_id: message.envelopeId ?? null }).execute();
  }

  /** The kept text messages, newest first. */
  async texts(limit = 200): Promise<DevTextMessage[]> {
    const rows = await this.#k.selectFrom('dev_text_messages').selectAll().orderBy('sent_at', 'desc').orderBy('id').limit(limit).execute();
    return rows.map((r) => ({ id: r.id, sentAt: r.sent_at, channel: r.channel, to: r.to_number, body: r.body, ...(r.envelope_id !== null ? { envelopeId: r.envelope_id } : {}) }));
  }

  async find(id: string): Promise<DevMailboxMessage | undefined> {
    const row = await this.#k.selectFrom('dev_mailbox').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toMessage(row) : undefined;
  }
}

function toMessage(row: DevMailboxRow): DevMailboxMessage {
  const attachments = JSON.parse(row.attachments_json) as MailAttachment[];
  return {
    id: row.id,
    receivedAt: row.received_at,
    ...(row.message_id !== null ? { messageId: row.message_id } : {}),
    message: {
      kind: row.kind,
      ...(row.envelope_id !== null ? { envelopeId: row.envelope_id } : {}),
      to: { email: row.to_email, name: row.to_name },
      subject: row.subject,
      text: row.text_body,
      html: row.html_body,
      ...(attachments.length > 0 ? { attachments } : {}),
    },
  };
}
