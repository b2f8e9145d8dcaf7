import type { Database } from './schema.ts';
import { randomInt, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { ConnectMessage } from '../domain/connect/connect-message.ts';
import { assertRoomForConnectConfiguration } from '../domain/connect/connect-configuration-limit.ts';
import type { ConnectConfiguration } from '../domain/connect/event-subscription.ts';
import type { ConnectConfigurationDraft } from '../domain/connect/event-subscription.ts';
import type { ConnectDeliveryRow, ConnectHmacKeyRow } from './connect-tables.ts';
import type { Db } from './database.ts';

/** One claimed delivery. `attempts` already counts this attempt. */
export type ClaimedDelivery = {
  readonly id: string;
  readonly accountId: string;
  readonly url: string;
  readonly includeHMAC: boolean;
  /** The summary's documents get their PDFBytes when sent (includeDocuments). */
  readonly includeDocuments: boolean;
  readonly attempts: number;
  /** Attempts since the last republish (the retry budget's count). */
  readonly attemptsSinceRepublish: number;
  readonly message: ConnectMessage;
};

/** What a worker asks of claim(). */
export type ClaimInput = {
  readonly workerId: string;
  readonly now: Date;
  readonly leaseMs: number;
  readonly limit: number;
  /** Listener URLs this worker is serving: none of their deliveries (their order). */
  readonly exceptUrls?: readonly string[];
  /** At most `limit` deliveries per account, less what `taken` says an account holds already. */
  readonly perAccount?: { readonly limit: number; readonly taken?: ReadonlyMap<string, number> };
};

/**
 * The per-account cap as SQL: a CASE over the accounts that hold some already, the full limit
 * for the others. Cast so PostgreSQL compares integers (bare parameters in a CASE are text).
 */
function accountCap({ limit, taken = new Map() }: NonNullable<ClaimInput['perAccount']>) {
  const left = (held: number) => sql`cast(${Math.max(0, limit - held)} as integer)`;
  if (taken.size === 0) return left(0);
  return sql`case r.account_id ${sql.join([...taken].map(([account, held]) => sql`when ${account} then ${left(held)}`), sql` `)} else ${left(0)} end`;
}

/** An HMAC key as the console lists it (never the secret). */
export type HmacKeyInfo = Pick<ConnectHmacKeyRow, 'key_id' | 'hint' | 'created_at' | 'revoked_at'>;

function toConfiguration(row: { connect_id: string; account_id: string; configuration_json: string }): ConnectConfiguration {
  return { ...(JSON.parse(row.configuration_json) as ConnectConfigurationDraft), connectId: row.connect_id, accountId: row.account_id };
}

function configurationJson(draft: ConnectConfigurationDraft): string {
  const { name, enabled, allUsers, userIds, url, events, includeHMAC, includeDocuments, includeData, requireAcknowledgment } = draft;
  return JSON.stringify({ name, enabled, allUsers, userIds, url, events, includeHMAC, includeDocuments, includeData, requireAcknowledgment });
}

/** Connect configurations, HMAC keys and the delivery outbox over SQLite or PostgreSQL. */
export class ConnectRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  get #k(): Kysely<Database> {
    return this.#db.kysely;
  }

  // ---- configurations

  async listConfigurations(accountId: string): Promise<ConnectConfiguration[]> {
    const rows = await this.#k.selectFrom('connect_configurations').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('connect_id').execute();
    return rows.map(toConfiguration);
  }

  async findConfiguration(accountId: string, connectId: string): Promise<ConnectConfiguration | undefined> {
    const row = await this.#k.selectFrom('connect_configurations').selectAll().where('account_id', '=', accountId).where('connect_id', '=', connectId).executeTakeFirst();
    return row ? toConfiguration(row) : undefined;
  }

  /**
   * Stores a new configuration under a fresh numeric connectId (DocuSign's are integers), or
   * refuses it when the account has as many as it may (domain/connect/connect-configuration-limit.ts).
   * The count and the insert are one transaction holding the account row (PostgreSQL) or the
   * write lock (SQLite's BEGIN IMMEDIATE), so two requests at once cannot both take the last place.
   */
  async createConfiguration(accountId: string, draft: ConnectConfigurationDraft, now: Date): Promise<ConnectConfiguration> {
    return this.#db.transaction(async (trx) => {
      await trx.selectFrom('accounts').select('id').where('id', '=', accountId).$if(this.#db.engine === 'postgres', (q) => q.forUpdate()).execute();
      const { n } = await trx.selectFrom('connect_configurations').select((eb) => eb.fn.countAll<number | string>().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow();
      assertRoomForConnectConfiguration(Number(n));
      for (;;) {
        const connectId = String(randomInt(1_000_000, 99_999_999));
        const inserted = await trx.insertInto('connect_configurations')
          .values({ connect_id: connectId, account_id: accountId, name: draft.name, enabled: draft.enabled ? 1 : 0, configuration_json: configurationJson(draft), created_at: now.toISOString(), updated_at: now.toISOString() })
          .onConflict((oc) => oc.column('connect_id').doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { ...draft, connectId, accountId };
      }
    });
  }

  /** Replaces a configuration; false when the account has no such configuration. */
  async updateConfiguration(accountId: string, connectId: string, draft: ConnectConfigurationDraft, now: Date): Promise<boolean> {
    const res = await this.#k.updateTable('connect_configurations')
      .set({ name: draft.name, enabled: draft.enabled ? 1 : 0, configuration_json: configurationJson(draft), updated_at: now.toISOString() })
      .where('account_id', '=', accountId).where('connect_id', '=', connectId).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Deletes a configuration; its deliveries not yet made (or in flight) are discarded with it. */
  async deleteConfiguration(accountId: string, connectId: string): Promise<boolean> {
    return this.#db.transaction(async (untyped) => {
      const trx = untyped;
      const res = await trx.deleteFrom('connect_configurations').where('account_id', '=', accountId).where('connect_id', '=', connectId).executeTakeFirst();
      if (Number(res.numDeletedRows) !== 1) return false;
      // Claims cleared too: a worker's verdict on one in flight is fenced off (markDelivered/markFailed match claimed_by).
      await trx.updateTable('connect_deliveries').set({ status: 'discarded', claimed_by: null, lease_until: null }).where('account_id', '=', accountId).where('configuration_id', '=', connectId).where('status', '=', 'pending').execute();
      return true;
    });
  }

  // ---- HMAC keys

  async listHmacKeys(accountId: string): Promise<HmacKeyInfo[]> {
    return this.#k.selectFrom('connect_hmac_keys').select(['key_id', 'hint', 'created_at', 'revoked_at']).where('account_id', '=', accountId).orderBy('created_at').orderBy('key_id').execute();
  }

  async addHmacKey(accountId: string, sealedSecret: string, hint: string, now: Date): Promise<string> {
    const keyId = randomUUID();
    await this.#k.insertInto('connect_hmac_keys').values({ key_id: keyId, account_id: accountId, sealed_secret: sealedSecret, hint, created_at: now.toISOString(), revoked_at: null }).execute();
    return keyId;
  }

  async revokeHmacKey(accountId: string, keyId: string, now: Date): Promise<void> {
    await this.#k.updateTable('connect_hmac_keys').set({ revoked_at: now.toISOString() }).where('account_id', '=', accountId).where('key_id', '=', keyId).where('revoked_at', 'is', null).execute();
  }

  /** The sealed secrets of the account's active keys, oldest first: X-DocuSign-Signature-1 is the oldest key. */
  async activeSealedSecrets(accountId: string): Promise<string[]> {
    const rows = await this.#k.selectFrom('connect_hmac_keys').select('sealed_secret').where('account_id', '=', accountId).where('revoked_at', 'is', null).orderBy('created_at').orderBy('key_id').execute();
    return rows.map((r) => r.sealed_secret);
  }

  // ---- deliveries

  /**
   * Claims due deliveries with a lease, like the mail outbox (outbox-repository.ts): one
   * UPDATE … RETURNING; on PostgreSQL the candidates are picked FOR UPDATE SKIP LOCKED so
   * concurrent workers take disjoint batches; on SQLite the statement runs under the single
   * write lock. A worker that dies leaves its rows to the next claim once the lease ends.
   *
   * Fair by account: the due rows are ranked within their account (oldest first) and taken
   * rank by rank, so one account's backlog never fills a batch while another's message waits
   * behind it (a tenant with 40 slow listeners once held another's message 28 s). `perAccount`
   * caps what each account may get: `limit` less what `taken` says it holds already.
   */
  async claim({ workerId, now, leaseMs, limit, exceptUrls = [], perAccount }: ClaimInput): Promise<ClaimedDelivery[]> {
    if (limit <= 0) return [];
    const at = now.toISOString();
    const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
    const lock = this.#db.engine === 'postgres' ? sql`for update of c skip locked` : sql``;
    // The listeners this worker is serving: their next messages wait for it (their order).
    const skip = exceptUrls.length > 0 ? sql`and url not in (${sql.join([...exceptUrls])})` : sql``;
    const due = sql`status = 'pending' and next_attempt_at <= ${at} and (claimed_by is null or lease_until < ${at})`;
    // Ranking every due row costs what the backlog holds (170 ms of the event loop per claim at
    // 100,000 rows): only a window of the oldest due rows is ranked, read along the due index,
    // and accounts already at their cap are left out of it, so a tenant with a huge backlog
    // fills the window only until it holds its share, and the next claim reaches the others.
    const full = perAccount ? [...(perAccount.taken ?? new Map<string, number>())].filter(([, held]) => held >= perAccount.limit).map(([account]) => account) : [];
    const notFull = full.length > 0 ? sql`and account_id not in (${sql.join(full)})` : sql``;
    const window = sql`select id, account_id, next_attempt_at, created_at, seq from connect_deliveries where ${due} ${skip} ${notFull} order by next_attempt_at, created_at, seq limit ${Math.max(64, limit * 8)}`;
    const ranked = sql`select id, account_id, row_number() over (partition by account_id order by next_attempt_at, created_at, seq) as account_rank from (${window}) w`;
    const cap = perAccount ? sql`and r.account_rank <= ${accountCap(perAccount)}` : sql``;
    // The ranking reads without locks; the outer select locks what it takes and re-checks the
    // claim on the row as it is then (another worker may have taken it meanwhile). LIMIT counts
    // only the rows locked, so a concurrent worker takes the next ones rather than none.
    const result = await sql<Pick<ConnectDeliveryRow, 'id' | 'account_id' | 'url' | 'include_hmac' | 'include_documents' | 'attempts' | 'attempts_base' | 'message_json' | 'created_at' | 'seq'>>`
      update connect_deliveries set claimed_by = ${workerId}, lease_until = ${leaseUntil}, attempts = attempts + 1, last_attempt_at = ${at}
      where id in (
        select c.id from connect_deliveries c join (${ranked}) r on r.id = c.id
        where c.status = 'pending' and c.next_attempt_at <= ${at} and (c.claimed_by is null or c.lease_until < ${at}) ${cap}
        order by r.account_rank, c.next_attempt_at, c.created_at, c.seq limit ${limit} ${lock}
      )
      returning id, account_id, url, include_hmac, include_documents, attempts, attempts_base, message_json, created_at, seq`.execute(this.#db.kysely);
    // RETURNING has no order: deliver in the order the events happened.
    const rows = [...result.rows].sort((a, b) => a.created_at.localeCompare(b.created_at) || Number(a.seq) - Number(b.seq));
    return rows.map((row) => ({
      id: row.id,
      accountId: row.account_id,
      url: row.url,
      includeHMAC: Number(row.include_hmac) === 1,
      includeDocuments: Number(row.include_documents) === 1,
      attempts: Number(row.attempts),
      attemptsSinceRepublish: Number(row.attempts) - Number(row.attempts_base),
      message: JSON.parse(row.message_json) as ConnectMessage,
    }));
  }

  async markDelivered(id: string, workerId: string, now: Date): Promise<void> {
    await this.#k.updateTable('connect_deliveries')
      .set({ status: 'delivered', delivered_at: now.toISOString(), claimed_by: null, lease_until: null, last_error: null })
      .where('id', '=', id).where('claimed_by', '=', workerId).execute();
  }

  /** Records a failed attempt; `retryAt` undefined means the retries are spent (status failed). */
  async markFailed(id: string, workerId: string, error: string, retryAt: Date | undefined): Promise<void> {
    await this.#k.updateTable('connect_deliveries')
      .set({ claimed_by: null, lease_until: null, last_error: error, ...(retryAt ? { next_attempt_at: retryAt.toISOString() } : { status: 'failed' }) })
      .where('id', '=', id).where('claimed_by', '=', workerId).execute();
  }

  /**
   * Hands a claimed delivery back unattempted (its worker is stopping, or its listener just
   * failed an earlier message), due at `dueAt` or at once: the claim's attempt is not counted.
   */
  async release(id: string, workerId: string, dueAt?: Date): Promise<void> {
    await this.#k.updateTable('connect_deliveries')
      .set({ claimed_by: null, lease_until: null, attempts: sql<number>`attempts - 1`, ...(dueAt ? { next_attempt_at: dueAt.toISOString() } : {}) })
      .where('id', '=', id).where('claimed_by', '=', workerId).execute();
  }

  /**
   * The failure log: deliveries whose last attempt failed, still retrying (pending) or given up
   * (failed), newest first, optionally within [from, to] by creation time.
   */
  async listFailures(accountId: string, range: { from?: Date; to?: Date } = {}): Promise<ConnectDeliveryRow[]> {
    let q = this.#k.selectFrom('connect_deliveries').selectAll().where('account_id', '=', accountId).where('last_error', 'is not', null).where('status', 'in', ['pending', 'failed']);
    if (range.from) q = q.where('created_at', '>=', range.from.toISOString());
    if (range.to) q = q.where('created_at', '<=', range.to.toISOString());
    return q.orderBy('created_at', 'desc').orderBy('seq', 'desc').limit(1000).execute();
  }

  findDelivery(accountId: string, id: string): Promise<ConnectDeliveryRow | undefined> {
    return this.#k.selectFrom('connect_deliveries').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  }

  /** Removes an entry from the failure log (and stops its retries); false when there is none. */
  async discardFailure(accountId: string, id: string): Promise<boolean> {
    const res = await this.#k.updateTable('connect_deliveries').set({ status: 'discarded', claimed_by: null, lease_until: null })
      .where('account_id', '=', accountId).where('id', '=', id).where('last_error', 'is not', null).where('status', 'in', ['pending', 'failed']).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /**
   * Republish (PUT …/connect/envelopes/retry_queue): the failed deliveries of these envelopes
   * are due again now, with a fresh retry budget. Returns the rows requeued.
   */
  async requeueFailures(accountId: string, envelopeIds: readonly string[], now: Date): Promise<ConnectDeliveryRow[]> {
    if (envelopeIds.length === 0) return [];
    const at = now.toISOString();
    // One UPDATE … RETURNING, not a read then writes: the claim condition is checked on the row
    // as it is when written. On PostgreSQL a worker's claim committing meanwhile makes the row
    // fail the re-check (READ COMMITTED re-evaluates WHERE after the lock wait), so a delivery
    // in flight keeps its claim: requeueing it would send it twice at once.
    const rows = await this.#k.updateTable('connect_deliveries')
      .set({ status: 'pending', next_attempt_at: at, attempts_base: sql<number>`attempts`, claimed_by: null, lease_until: null })
      .where('account_id', '=', accountId).where('envelope_id', 'in', [...envelopeIds])
      .where('last_error', 'is not', null).where('status', 'in', ['pending', 'failed'])
      .where((eb) => eb.or([eb('claimed_by', 'is', null), eb('lease_until', '<', at)]))
      .returningAll().execute();
    // RETURNING has no order: the order the events happened.
    return rows.sort((a, b) => a.created_at.localeCompare(b.created_at) || Number(a.seq) - Number(b.seq));
  }

  /** Deletes delivered and discarded deliveries created before `before`; returns how many. Failed ones stay in the log. */
  async purgeFinished(before: Date): Promise<number> {
    const res = await this.#k.deleteFrom('connect_deliveries').where('status', 'in', ['delivered', 'discarded']).where('created_at', '<', before.toISOString()).executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  /** An envelope's deliveries in the order they were written (tests and the console). */
  listDeliveries(accountId: string, envelopeId?: string): Promise<ConnectDeliveryRow[]> {
    let q = this.#k.selectFrom('connect_deliveries').selectAll().where('account_id', '=', accountId);
    if (envelopeId !== undefined) q = q.where('envelope_id', '=', envelopeId);
    return q.orderBy('created_at').orderBy('seq').execute();
  }
}
