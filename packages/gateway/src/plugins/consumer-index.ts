// Consumers and their credentials, indexed once per configuration load: what the
// authentication plugins look up on each request. Secrets are compared in constant time; a
// key is found by its SHA-256 digest, so the lookup itself does not compare the secret.
import { hash, timingSafeEqual } from 'node:crypto';
import type { BasicauthCredential, Consumer, ConsumerGroup, HmacauthCredential, JwtSecret, KeyauthCredential, Snapshot } from '../declarative/types.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// crypto.hash: the one-shot digest, a third of createHash().update().digest()'s cost per request.
const digest = (secret: string): string => hash('sha256', secret, 'hex');

/** Constant-time equality of two strings (false at once when the lengths differ). */
export function secretsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Whether a key-auth credential's `ttl` (its expiry, Unix seconds) has come: DB-less Kong finds it
 * only while `ttl - ngx.time()` is positive, ngx.time() being whole seconds (strategies/off).
 */
export function isExpired(credential: KeyauthCredential, now: number): boolean {
  return credential.ttl !== undefined && credential.ttl - Math.floor(now) <= 0;
}

/** The lookups of one load. */
export class ConsumerIndex {
  readonly #byId = new Map<string, Consumer>();
  readonly #byUsername = new Map<string, Consumer>();
  /** digest → the credential and its key's bytes (built once, compared per request). */
  readonly #keys = new Map<string, { credential: KeyauthCredential; key: Buffer }>();
  readonly #basic = new Map<string, BasicauthCredential>();
  readonly #groups = new Map<string, string[]>();
  readonly #jwt = new Map<string, JwtSecret>();
  readonly #hmac = new Map<string, HmacauthCredential>();
  readonly #consumerGroups = new Map<string, ConsumerGroup[]>();

  /** The current time, Unix seconds (what expires a key-auth credential's `ttl`). */
  readonly #now: () => number;

  constructor(
    snapshot: Pick<Snapshot, 'consumers' | 'keyauth_credentials' | 'basicauth_credentials' | 'acls' | 'jwt_secrets' | 'hmacauth_credentials'>
      & Partial<Pick<Snapshot, 'consumer_groups' | 'consumer_group_consumers'>>,
    now: () => number = () => Date.now() / 1000,
  ) {
    this.#now = now;
    for (const c of snapshot.consumers) {
      this.#byId.set(c.id, c);
      if (c.username !== null) this.#byUsername.set(c.username, c);
    }
    for (const k of snapshot.keyauth_credentials) this.#keys.set(digest(k.key), { credential: k, key: Buffer.from(k.key) });
    for (const b of snapshot.basicauth_credentials) this.#basic.set(b.username, b);
    for (const j of snapshot.jwt_secrets) this.#jwt.set(j.key, j);
    for (const h of snapshot.hmacauth_credentials) this.#hmac.set(h.username, h);
    for (const a of snapshot.acls) {
      const list = this.#groups.get(a.consumer.id) ?? [];
      list.push(a.group);
      this.#groups.set(a.consumer.id, list);
    }
    const groups = new Map((snapshot.consumer_groups ?? []).map((g) => [g.id, g]));
    for (const m of snapshot.consumer_group_consumers ?? []) {
      const list = this.#consumerGroups.get(m.consumer.id) ?? [];
      list.push(groups.get(m.consumer_group.id)!);
      this.#consumerGroups.set(m.consumer.id, list);
    }
    // Kong picks among a consumer's groups by name, in alphabetical order.
    for (const list of this.#consumerGroups.values()) list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** A consumer by id. */
  consumer(id: string): Consumer | undefined {
    return this.#byId.get(id);
  }

  /** Kong's load_consumer(ref, by_username): by id when `ref` is a UUID, else by username. */
  consumerByIdOrUsername(ref: string): Consumer | undefined {
    return (UUID.test(ref) ? this.#byId.get(ref) : undefined) ?? this.#byUsername.get(ref);
  }

  /** The key-auth credential holding exactly this key, unless its `ttl` has come. */
  keyauthCredential(key: string): KeyauthCredential | undefined {
    const found = this.#keys.get(digest(key));
    if (found === undefined) return undefined;
    const given = Buffer.from(key);
    if (given.length !== found.key.length || !timingSafeEqual(given, found.key)) return undefined;
    return isExpired(found.credential, this.#now()) ? undefined : found.credential;
  }

  /** The basic-auth credential of this username. */
  basicauthCredential(username: string): BasicauthCredential | undefined {
    return this.#basic.get(username);
  }

  /** The jwt_secret whose key a token names (the key is an identifier, not the secret). */
  jwtSecret(key: string): JwtSecret | undefined {
    return this.#jwt.get(key);
  }

  /** The hmac-auth credential of this username. */
  hmacauthCredential(username: string): HmacauthCredential | undefined {
    return this.#hmac.get(username);
  }

  /** The consumer groups a consumer belongs to, by name; undefined when none. */
  consumerGroups(consumerId: string): readonly ConsumerGroup[] | undefined {
    return this.#consumerGroups.get(consumerId);
  }

  /** The ACL groups of a consumer, in file order; undefined when it has none. */
  groups(consumerId: string): readonly string[] | undefined {
    return this.#groups.get(consumerId);
  }
}
