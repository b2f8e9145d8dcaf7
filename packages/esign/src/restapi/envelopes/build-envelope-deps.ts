import { createHash, randomUUID } from 'node:crypto';
import type { EnvelopeDeps, EnvelopeStore } from '../../domain/envelope/ports.ts';
import type { BrandStore } from '../../domain/brands/brand-ports.ts';
import type { AccountSettingsStore } from '../../domain/account/account-settings-ports.ts';
import type { AccountCustomFieldStore } from '../../domain/account/account-custom-fields.ts';
import { buildNotifier } from '../../mail/compose-notification.ts';
import { newSecretToken, sha256Hex } from '../../security/secret-token.ts';
import { hashPassword, type PasswordHashCost } from '../../security/password-hash.ts';
import { buildPdfPorts, type EnvelopeConverter } from './pdf-adapters.ts';

/** Wires the envelope use cases to the store, the pdf package, the mail composer, the clock and crypto randomness. */
export function buildEnvelopeDeps(input: {
  store: EnvelopeStore;
  /** Access codes' scrypt cost: production's unless a test passes one. */
  passwordHashCost?: PasswordHashCost | undefined;
  brands: BrandStore;
  accounts: Pick<AccountSettingsStore, 'look'>;
  accountFields: Pick<AccountCustomFieldStore, 'list'>;
  converter: EnvelopeConverter;
  publicUrl: string;
  now: () => Date;
}): EnvelopeDeps {
  const pdf = buildPdfPorts(input.converter);
  return {
    store: input.store,
    converter: pdf.converter,
    anchors: pdf.anchors,
    notifier: buildNotifier(input.publicUrl),
    brands: input.brands,
    accounts: input.accounts,
    accountFields: input.accountFields,
    clock: input.now,
    random: { uuid: randomUUID, secretToken: () => newSecretToken(32) },
    hashSecret: sha256Hex,
    hashBytes: (bytes) => createHash('sha256').update(bytes).digest('hex'),
    hashAccessCode: (code) => hashPassword(code, input.passwordHashCost),
  };
}
