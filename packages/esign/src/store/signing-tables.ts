import { PostgresAdapter } from 'kysely';
import type { SigningFrame } from '../domain/signing/signing-frame.ts';
import type { Migration } from './migrations.ts';

/**
 * Tables of the signing ceremony and completion. Same conventions as schema.ts and
 * envelope-tables.ts: ISO-8601 UTC text timestamps, bytes as blob/bytea.
 */
export type AuditEventRow = {
  /** Insertion order: several events share a millisecond (one change writes several). */
  seq?: number;
  envelope_id: string;
  at: string;
  action: string;
  envelope_status: string;
  source: string;
  message: string;
  actor_name: string | null;
  actor_email: string | null;
  recipient_id: string | null;
  ip_address: string | null;
  user_agent: string | null;
  /** Migration 131 (document-supplement-columns.ts): the document the line is about. */
  document_id?: string | null;
};
/** The signature a signer adopted and the tabs they signed with it (written just before finish). */
export type AdoptedSignatureRow = {
  envelope_id: string;
  recipient_id: string;
  /** typed | image */
  kind: string;
  typed_text: string | null;
  image: Uint8Array | null;
  /** JSON array of the tab ids signed. */
  signed_tabs_json: string;
  adopted_at: string;
};
/** What completion produced: the sealed combined PDFs and the certificate. */
export type EnvelopeResultRow = {
  envelope_id: string;
  /** Every stamped document then the certificate of completion, sealed once. */
  combined_with_certificate: Uint8Array;
  /** The stamped documents only, sealed (GET documents/combined?certificate=false). */
  combined_documents: Uint8Array;
  /** The certificate of completion alone, sealed. */
  certificate: Uint8Array;
  created_at: string;
};
export type SignedDocumentRow = { envelope_id: string; document_id: string; pdf: Uint8Array };
/** createRecipientView's single-use URL secrets (stored as SHA-256). */
export type RecipientViewRow = {
  token_hash: string;
  envelope_id: string;
  recipient_id: string;
  return_url: string;
  created_at: string;
  expires_at: string;
  consumed_at: string | null;
  /** A focused view's frame (domain/signing/signing-frame.ts): JSON lists of origins, null when not framed. */
  frame_ancestors: string | null;
  message_origins: string | null;
};
/** The browser session a redeemed recipient view opens (cookie value stored as SHA-256). */
export type SigningSessionRow = {
  token_hash: string;
  envelope_id: string;
  recipient_id: string;
  return_url: string;
  created_at: string;
  expires_at: string;
  /** The frame of the view it came from, as in RecipientViewRow. */
  frame_ancestors: string | null;
  message_origins: string | null;
};

/**
 * A `signed` envelope whose completion failed (stamping or sealing threw). The row takes it out
 * of the completion queue until `next_attempt_at`; `failed_at` set means the retries are spent
 * and only an operator's retry brings it back. Deleted when completion succeeds.
 */
export type CompletionFailureRow = {
  envelope_id: string;
  attempts: number;
  last_error: string;
  first_failed_at: string;
  last_failed_at: string;
  /** When the worker may try again; null once it has given up. */
  next_attempt_at: string | null;
  failed_at: string | null;
};

export type SigningTables = {
  completion_failures: CompletionFailureRow;
  envelope_audit_events: AuditEventRow;
  adopted_signatures: AdoptedSignatureRow;
  envelope_results: EnvelopeResultRow;
  signed_documents: SignedDocumentRow;
  recipient_views: RecipientViewRow;
  signing_sessions: SigningSessionRow;
};

/**
 * Schema step for the tables above. Version 7 (the issue's number) leaves room for the other
 * engineers' steps; versions only have to be unique and to follow envelope-tables (2).
 */
export const SIGNING_TABLES_MIGRATION: Migration = {
  version: 7,
  name: 'audit events, adopted signatures, completion results, recipient views, signing sessions',
  async up(db) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    const bytes = postgres ? 'bytea' : 'blob';
    const s = db.schema;
    // Append-only: the repository has insert and select, nothing else.
    await s.createTable('envelope_audit_events')
      .addColumn('seq', postgres ? 'bigserial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('envelope_id', 'text', (c) => c.notNull().references('envelopes.id'))
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('envelope_status', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('actor_name', 'text')
      .addColumn('actor_email', 'text')
      .addColumn('recipient_id', 'text')
      .addColumn('ip_address', 'text')
      .addColumn('user_agent', 'text')
      .execute();
    await s.createIndex('envelope_audit_events_envelope_idx').on('envelope_audit_events').columns(['envelope_id', 'seq']).execute();
    await s.createTable('adopted_signatures')
      .addColumn('envelope_id', 'text', (c) => c.notNull().references('envelopes.id'))
      .addColumn('recipient_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('typed_text', 'text')
      .addColumn('image', bytes)
      .addColumn('signed_tabs_json', 'text', (c) => c.notNull())
      .addColumn('adopted_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('adopted_signatures_pk', ['envelope_id', 'recipient_id'])
      .execute();
    await s.createTable('envelope_results')
      .addColumn('envelope_id', 'text', (c) => c.primaryKey().references('envelopes.id'))
      .addColumn('combined_with_certificate', bytes, (c) => c.notNull())
      .addColumn('combined_documents', bytes, (c) => c.notNull())
      .addColumn('certificate', bytes, (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await s.createTable('signed_documents')
      .addColumn('envelope_id', 'text', (c) => c.notNull().references('envelopes.id'))
      .addColumn('document_id', 'text', (c) => c.notNull())
      .addColumn('pdf', bytes, (c) => c.notNull())
      .addPrimaryKeyConstraint('signed_documents_pk', ['envelope_id', 'document_id'])
      .execute();
    await s.createTable('recipient_views')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('envelope_id', 'text', (c) => c.notNull().references('envelopes.id'))
      .addColumn('recipient_id', 'text', (c) => c.notNull())
      .addColumn('return_url', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('consumed_at', 'text')
      .execute();
    await s.createTable('signing_sessions')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('envelope_id', 'text', (c) => c.notNull().references('envelopes.id'))
      .addColumn('recipient_id', 'text', (c) => c.notNull())
      .addColumn('return_url', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    // The completion worker looks for envelopes in the transient `signed` state.
    await s.createIndex('envelopes_status_idx').on('envelopes').column('status').execute();
  },
};

/** Version 8: completion failures, so one envelope that cannot be completed never blocks the queue. */
export const COMPLETION_FAILURES_MIGRATION: Migration = {
  version: 8,
  name: 'completion failures with backoff',
  async up(db) {
    await db.schema.createTable('completion_failures')
      .addColumn('envelope_id', 'text', (c) => c.primaryKey().references('envelopes.id'))
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('last_error', 'text', (c) => c.notNull())
      .addColumn('first_failed_at', 'text', (c) => c.notNull())
      .addColumn('last_failed_at', 'text', (c) => c.notNull())
      .addColumn('next_attempt_at', 'text')
      .addColumn('failed_at', 'text')
      .execute();
  },
};

/**
 * Version 90: focused views. The origins that may frame a session and receive its events, kept
 * on the view and carried to the session it opens (null: not framed, as every older row).
 */
export const SIGNING_FRAME_MIGRATION: Migration = {
  version: 90,
  name: 'focused views: frame ancestors and message origins of recipient views and signing sessions',
  async up(db) {
    for (const table of ['recipient_views', 'signing_sessions'] as const) {
      await db.schema.alterTable(table).addColumn('frame_ancestors', 'text').execute();
      await db.schema.alterTable(table).addColumn('message_origins', 'text').execute();
    }
  },
};

/** A frame as stored: one JSON text column per list, nulls when the session is not framed. */
export function frameColumns(frame: SigningFrame | undefined): { frame_ancestors: string | null; message_origins: string | null } {
  return frame ? { frame_ancestors: JSON.stringify(frame.ancestors), message_origins: JSON.stringify(frame.messageOrigins) } : { frame_ancestors: null, message_origins: null };
}

/** Back from the stored columns. */
export function frameFromColumns(row: { frame_ancestors: string | null; message_origins: string | null }): SigningFrame | undefined {
  if (row.frame_ancestors === null) return undefined;
  return { ancestors: JSON.parse(row.frame_ancestors) as string[], messageOrigins: JSON.parse(row.message_origins ?? '[]') as string[] };
}
