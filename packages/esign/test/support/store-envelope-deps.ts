import { createHash, randomUUID } from 'node:crypto';
import type { EnvelopeDeps, EnvelopeStore } from '../../src/domain/envelope/ports.ts';
import { buildNotifier } from '../../src/mail/compose-notification.ts';
import { buildConnectMessage } from '../../src/connect/build-connect-message.ts';
import type { Db } from '../../src/store/database.ts';
import type { BrandStore } from '../../src/domain/brands/brand-ports.ts';
import { NO_BRANDS } from './no-brands.ts';
import { EnvelopesRepository, type CommittedEffects } from '../../src/store/envelopes-repository.ts';
import { DEFAULTS } from '../../src/config.ts';

const sha = (s: string | Uint8Array) => createHash('sha256').update(s).digest('hex');

/**
 * The envelope use cases' ports over a real store, for tests below the HTTP layer: every
 * document converts to `pdf` (default: a stand-in naming the document) of one Letter page, no
 * anchors, the real notifier, the given clock, random ids and SHA-256.
 */
export function storeEnvelopeDeps(store: EnvelopeStore, clock: { now: () => Date }, pdf?: Uint8Array, brands: BrandStore = NO_BRANDS): EnvelopeDeps {
  return {
    store,
    converter: { convert: (d) => Promise.resolve({ pdf: pdf ?? new TextEncoder().encode(`%PDF-1.7 ${d.name}`), pages: [{ width: 612, height: 792 }] }) },
    anchors: { find: () => Promise.resolve([]) },
    notifier: buildNotifier('https://esign.test'),
    brands,
    // No account settings: every account reads as the service's defaults.
    accounts: { look: () => Promise.resolve({}) },
    clock: clock.now,
    random: { uuid: randomUUID, secretToken: () => randomUUID() },
    hashSecret: sha,
    hashBytes: sha,
    // Not scrypt: these tests are not about the hash, and scrypt costs ~0.2 s each.
    hashAccessCode: (code) => Promise.resolve(`test$${sha(code)}`),
  };
}

/** The envelopes repository as server.ts builds it (Connect messages in the wire format), for tests below the HTTP layer. */
export function envelopesRepository(db: Db, onCommitted?: (written: CommittedEffects) => void, sendAllowance: number = DEFAULTS.sendAllowance): EnvelopesRepository {
  return new EnvelopesRepository(db, { connectMessage: buildConnectMessage, sendAllowance, ...(onCommitted ? { onCommitted } : {}) });
}
