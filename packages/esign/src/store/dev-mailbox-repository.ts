import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { MailAttachment, MailMessage } from '../mail/mail-message.ts';
import type { Db } from './database.ts';
import type { DevMailboxRow, EnvelopeTables } from './envelope-tables.ts';

/** A message in the dev mailbox. */
export type DevMailboxMessage = { id: string; receivedAt: string; message: MailMessage };

/** The development mailbox: mails "delivered" into the database when SMTP_URL is unset. */
export class DevMailboxRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  get #k(): Kysely<EnvelopeTables> {
    return this.#db.kysely.withTables<EnvelopeTables>();
  }

  async add(message: MailMessage, now: Date): Promise<string> {
    const id = randomUUID();
    await this.#k.insertInto('dev_mailbox').values({
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
    }).execute();
    return id;
  }

  /** Newest first. */
  async list(limit = 200): Promise<DevMailboxMessage[]> {
    const rows = await this.#k.selectFrom('dev_mailbox').selectAll().orderBy('received_at', 'desc').orderBy('id').limit(limit).execute();
    return rows.map(toMessage);
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
