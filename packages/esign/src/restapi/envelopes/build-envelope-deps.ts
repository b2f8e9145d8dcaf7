import { createHash, randomUUID } from 'node:crypto';
import type { EnvelopeDeps } from '../../domain/envelope/ports.ts';
import { buildNotifier } from '../../mail/compose-notification.ts';
import { newSecretToken, sha256Hex } from '../../security/secret-token.ts';
import type { Db } from '../../store/database.ts';
import { EnvelopesRepository } from '../../store/envelopes-repository.ts';
import { buildPdfPorts, type EnvelopeConverter } from './pdf-adapters.ts';

/** Wires the envelope use cases to the database, the pdf package, the mail composer, the clock and crypto randomness. */
export function buildEnvelopeDeps(input: {
  db: Db;
  converter: EnvelopeConverter;
  publicUrl: string;
  now: () => Date;
  /** Called after a commit that wrote outbox mails (wakes the delivery worker). */
  onMails?: () => void;
  /** Called after a commit that wrote Connect deliveries (wakes the Connect worker). */
  onConnectEvents?: () => void;
}): EnvelopeDeps {
  const pdf = buildPdfPorts(input.converter);
  return {
    store: new EnvelopesRepository(input.db, input.onMails, input.onConnectEvents),
    converter: pdf.converter,
    anchors: pdf.anchors,
    notifier: buildNotifier(input.publicUrl),
    clock: input.now,
    random: { uuid: randomUUID, secretToken: () => newSecretToken(32) },
    hashSecret: sha256Hex,
    hashBytes: (bytes) => createHash('sha256').update(bytes).digest('hex'),
  };
}
