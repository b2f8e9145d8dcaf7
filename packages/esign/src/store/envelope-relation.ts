import { sql } from 'kysely';
import type { EnvelopeRelation } from '../domain/envelope/envelope-access.ts';
import type { Db } from './database.ts';
import { receivedBy } from './envelope-list-sql.ts';

/**
 * What the user is to one envelope of the account (domain/envelope/envelope-access.ts), in one
 * indexed lookup rather than a whole envelope; undefined when the account has no such envelope.
 */
export async function envelopeRelation(db: Db, accountId: string, envelopeId: string, userId: string): Promise<EnvelopeRelation | undefined> {
  const row = await db.kysely.selectFrom('envelopes')
    .select(['sender_user_id', sql<number | string | boolean>`case when ${receivedBy(db.engine, userId)} then 1 else 0 end`.as('received')])
    .where('id', '=', envelopeId).where('account_id', '=', accountId)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.sender_user_id === userId) return 'sender';
  return Number(row.received) === 1 ? 'recipient' : 'none';
}
