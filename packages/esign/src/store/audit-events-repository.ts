import type { Database } from './schema.ts';
import type { Kysely } from 'kysely';
import type { AuditAction, AuditEvent } from '../domain/signing/audit-event.ts';
import type { Db } from './database.ts';

/** Appends audit lines inside the caller's transaction (the change they describe commits with them). */
export async function appendAuditEvents(trx: Kysely<Database>, events: readonly AuditEvent[]): Promise<void> {
  const k = trx;
  for (const e of events) {
    await k.insertInto('envelope_audit_events').values({
      envelope_id: e.envelopeId,
      at: e.at.toISOString(),
      action: e.action,
      envelope_status: e.envelopeStatus,
      source: e.source,
      message: e.message,
      actor_name: e.name ?? null,
      actor_email: e.email ?? null,
      recipient_id: e.recipientId ?? null,
      ip_address: e.ipAddress ?? null,
      user_agent: e.userAgent ?? null,
      document_id: e.documentId ?? null,
    }).execute();
  }
}

/** The audit trail, read-only: there is deliberately no update or delete. */
export class AuditEventsRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  /** Every event of an envelope, oldest first. */
  async list(envelopeId: string): Promise<AuditEvent[]> {
    const rows = await this.#db.kysely.selectFrom('envelope_audit_events').selectAll().where('envelope_id', '=', envelopeId).orderBy('seq').execute();
    return rows.map((r) => ({
      envelopeId: r.envelope_id,
      at: new Date(r.at),
      action: r.action as AuditAction,
      envelopeStatus: r.envelope_status,
      source: r.source as AuditEvent['source'],
      message: r.message,
      ...(r.actor_name !== null ? { name: r.actor_name } : {}),
      ...(r.actor_email !== null ? { email: r.actor_email } : {}),
      ...(r.recipient_id !== null ? { recipientId: r.recipient_id } : {}),
      ...(r.ip_address !== null ? { ipAddress: r.ip_address } : {}),
      ...(r.user_agent !== null ? { userAgent: r.user_agent } : {}),
      ...(r.document_id !== null && r.document_id !== undefined ? { documentId: r.document_id } : {}),
    }));
  }
}
