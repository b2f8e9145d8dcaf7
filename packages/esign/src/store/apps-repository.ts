import { randomUUID } from 'node:crypto';
import type { Db } from './database.ts';
import type { AppRow, AppRsaKeyRow, AppSecretRow } from './schema.ts';

/** What the console shows of a secret: never the secret, only its last characters. */
export type SecretInfo = Pick<AppSecretRow, 'id' | 'hint' | 'created_at' | 'revoked_at'>;
export type RsaKeyInfo = Pick<AppRsaKeyRow, 'id' | 'public_key_pem' | 'created_at' | 'revoked_at'>;

/** Integrating apps, their secrets (hashes only), redirect URLs and RSA public keys. */
export class AppsRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  /** Creates an app with its first redirect URLs, secret hash and key, in one transaction. */
  async createApp(input: {
    accountId: string;
    ownerUserId: string;
    name: string;
    redirectUris: readonly string[];
    secret?: { hash: string; hint: string } | undefined;
    rsaPublicKeyPem?: string | undefined;
    now: Date;
  }): Promise<AppRow> {
    const at = input.now.toISOString();
    const app: AppRow = { id: randomUUID(), account_id: input.accountId, owner_user_id: input.ownerUserId, name: input.name, created_at: at };
    await this.#db.transaction(async (trx) => {
      await trx.insertInto('apps').values(app).execute();
      for (const uri of new Set(input.redirectUris)) {
        await trx.insertInto('app_redirect_uris').values({ app_id: app.id, uri, created_at: at }).execute();
      }
      if (input.secret) {
        await trx.insertInto('app_secrets').values({ id: randomUUID(), app_id: app.id, secret_hash: input.secret.hash, hint: input.secret.hint, created_at: at, revoked_at: null }).execute();
      }
      if (input.rsaPublicKeyPem) {
        await trx.insertInto('app_rsa_keys').values({ id: randomUUID(), app_id: app.id, public_key_pem: input.rsaPublicKeyPem, created_at: at, revoked_at: null }).execute();
      }
    });
    return app;
  }

  findApp(id: string): Promise<AppRow | undefined> {
    return this.#db.kysely.selectFrom('apps').selectAll().where('id', '=', id).executeTakeFirst();
  }

  listApps(accountIds: readonly string[]): Promise<AppRow[]> {
    if (accountIds.length === 0) return Promise.resolve([]);
    return this.#db.kysely.selectFrom('apps').selectAll().where('account_id', 'in', accountIds).orderBy('created_at').orderBy('name').execute();
  }

  async addSecret(appId: string, hash: string, hint: string, now: Date): Promise<string> {
    const id = randomUUID();
    await this.#db.kysely.insertInto('app_secrets').values({ id, app_id: appId, secret_hash: hash, hint, created_at: now.toISOString(), revoked_at: null }).execute();
    return id;
  }

  /** Revokes one secret of the app; false when there is no such live secret. */
  async revokeSecret(appId: string, secretId: string, now: Date): Promise<boolean> {
    const res = await this.#db.kysely.updateTable('app_secrets').set({ revoked_at: now.toISOString() })
      .where('app_id', '=', appId).where('id', '=', secretId).where('revoked_at', 'is', null).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  listSecrets(appId: string): Promise<SecretInfo[]> {
    return this.#db.kysely.selectFrom('app_secrets').select(['id', 'hint', 'created_at', 'revoked_at'])
      .where('app_id', '=', appId).orderBy('created_at').execute();
  }

  /** Hashes of the secrets that still authenticate the app. */
  async liveSecretHashes(appId: string): Promise<string[]> {
    const rows = await this.#db.kysely.selectFrom('app_secrets').select('secret_hash')
      .where('app_id', '=', appId).where('revoked_at', 'is', null).execute();
    return rows.map((r) => r.secret_hash);
  }

  async redirectUris(appId: string): Promise<string[]> {
    const rows = await this.#db.kysely.selectFrom('app_redirect_uris').select('uri').where('app_id', '=', appId).orderBy('created_at').orderBy('uri').execute();
    return rows.map((r) => r.uri);
  }

  /** Registers a redirect URL; adding one twice is a no-op. */
  async addRedirectUri(appId: string, uri: string, now: Date): Promise<void> {
    await this.#db.kysely.insertInto('app_redirect_uris').values({ app_id: appId, uri, created_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['app_id', 'uri']).doNothing()).execute();
  }

  async removeRedirectUri(appId: string, uri: string): Promise<void> {
    await this.#db.kysely.deleteFrom('app_redirect_uris').where('app_id', '=', appId).where('uri', '=', uri).execute();
  }

  async addRsaKey(appId: string, publicKeyPem: string, now: Date): Promise<string> {
    const id = randomUUID();
    await this.#db.kysely.insertInto('app_rsa_keys').values({ id, app_id: appId, public_key_pem: publicKeyPem, created_at: now.toISOString(), revoked_at: null }).execute();
    return id;
  }

  async revokeRsaKey(appId: string, keyId: string, now: Date): Promise<boolean> {
    const res = await this.#db.kysely.updateTable('app_rsa_keys').set({ revoked_at: now.toISOString() })
      .where('app_id', '=', appId).where('id', '=', keyId).where('revoked_at', 'is', null).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  listRsaKeys(appId: string): Promise<RsaKeyInfo[]> {
    return this.#db.kysely.selectFrom('app_rsa_keys').select(['id', 'public_key_pem', 'created_at', 'revoked_at'])
      .where('app_id', '=', appId).orderBy('created_at').execute();
  }

  /** PEM public keys a JWT assertion may be signed with. */
  async liveRsaKeys(appId: string): Promise<string[]> {
    const rows = await this.#db.kysely.selectFrom('app_rsa_keys').select('public_key_pem')
      .where('app_id', '=', appId).where('revoked_at', 'is', null).execute();
    return rows.map((r) => r.public_key_pem);
  }
}
