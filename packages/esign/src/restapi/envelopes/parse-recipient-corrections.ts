import { normalizeEmail } from '../../domain/email-address.ts';
import type { RecipientType } from '../../domain/envelope/envelope.ts';
import type { RecipientCorrection } from '../../domain/envelope/correct-recipients.ts';
import type { RecipientRemoval } from '../../domain/envelope/delete-recipients.ts';
import { EsignError } from '../../errors.ts';
import { checkModelFields, type ModelFieldRule } from '../../wire/check-model-fields.ts';
import { parseRecipientAuthentication } from '../../wire/parse-recipient-authentication.ts';
import { AGENT_CORRECTION_FIELDS, CARBON_COPY_CORRECTION_FIELDS, CERTIFIED_DELIVERY_CORRECTION_FIELDS, IN_PERSON_SIGNER_CORRECTION_FIELDS, EDITOR_CORRECTION_FIELDS, INTERMEDIARY_CORRECTION_FIELDS, RECIPIENTS_FIELDS, SIGNER_CORRECTION_FIELDS, WITNESS_CORRECTION_FIELDS } from '../../wire/envelope-field-rules.ts';
import { WireReader } from '../../wire/wire-reader.ts';
import { assertUnique } from './parse-envelope-definition.ts';

// The create's bound (parse-envelope-definition.ts).
const MAX_ROUTING_ORDER = 999;
const LISTS: readonly (readonly [string, RecipientType])[] = [
  ['signers', 'signer'], ['carbonCopies', 'carbonCopy'], ['certifiedDeliveries', 'certifiedDelivery'], ['inPersonSigners', 'inPersonSigner'],
  ['agents', 'agent'], ['editors', 'editor'], ['intermediaries', 'intermediary'], ['witnesses', 'witness'],
];
const MODELS: Partial<Record<RecipientType, readonly [string, Readonly<Record<string, ModelFieldRule>>]>> = {
  signer: ['Signer', SIGNER_CORRECTION_FIELDS], inPersonSigner: ['InPersonSigner', IN_PERSON_SIGNER_CORRECTION_FIELDS], carbonCopy: ['CarbonCopy', CARBON_COPY_CORRECTION_FIELDS], certifiedDelivery: ['CertifiedDelivery', CERTIFIED_DELIVERY_CORRECTION_FIELDS],
  agent: ['Agent', AGENT_CORRECTION_FIELDS], editor: ['Editor', EDITOR_CORRECTION_FIELDS], intermediary: ['Intermediary', INTERMEDIARY_CORRECTION_FIELDS], witness: ['Witness', WITNESS_CORRECTION_FIELDS],
};

/** The Recipients body's entries, each with the type its list gives it; other lists refused by name. */
function entries(body: unknown): { reader: WireReader; type: RecipientType }[] {
  const root = new WireReader('', body);
  if (root.object() === undefined) root.fail('must be a Recipients object (signers, carbonCopies, …).');
  checkModelFields(root, 'Recipients', RECIPIENTS_FIELDS);
  const out = LISTS.flatMap(([list, type]) => root.field(list).items().map((reader) => ({ reader, type })));
  if (out.length === 0) throw new EsignError('INVALID_REQUEST_BODY', 'Name at least one recipient (recipients.signers, carbonCopies, certifiedDeliveries, inPersonSigners, agents, editors, intermediaries or witnesses, each with its recipientId).');
  return out;
}

/**
 * The body of EnvelopesApi.updateRecipients (the SDK's Recipients model): per recipient its
 * recipientId and what is corrected (name, or fullName, or firstName + lastName, as a create
 * reads them; email; routingOrder; accessCode; a witness's witnessFor; an in-person signer's host and signer*;
 * the one-time passcode check, to be compared). Checked as a create checks them; a field updateRecipients
 * does not change here is refused by name (SIGNER_CORRECTION_FIELDS).
 */
export function parseRecipientCorrections(body: unknown): RecipientCorrection[] {
  const corrections = entries(body).map(({ reader: r, type }) => {
    if (r.object() === undefined) r.fail('must be a recipient object.');
    const [model, fields] = MODELS[type]!;
    checkModelFields(r, model, fields);
    const recipientId = r.field('recipientId').string(100);
    const address = (field: string): string | undefined => {
      const raw = r.field(field).optionalString(254);
      try {
        return raw === undefined ? undefined : normalizeEmail(raw);
      } catch {
        throw new EsignError('INVALID_EMAIL_ADDRESS_FOR_RECIPIENT', `recipientId ${recipientId} ("${raw}")`);
      }
    };
    const inPerson = type === 'inPersonSigner';
    // An in-person signer's own name and address are signer*; `email` is an output for them.
    const email = inPerson ? address('signerEmail') : address('email');
    const [first, last] = inPerson ? ['signerFirstName', 'signerLastName'] : ['firstName', 'lastName'];
    const parts = [r.field(first).optionalString(50), r.field(last).optionalString(50)].filter(Boolean);
    const name = (inPerson ? r.field('signerName').optionalString(100) : undefined) ?? r.field('name').optionalString(100) ?? (inPerson ? undefined : r.field('fullName').optionalString(100)) ?? (parts.length > 0 ? parts.join(' ') : undefined);
    const hostName = inPerson ? r.field('hostName').optionalString(100) : undefined;
    const hostEmail = inPerson ? address('hostEmail') : undefined;
    const routingOrder = r.field('routingOrder').optionalInteger(1, MAX_ROUTING_ORDER);
    const clientUserId = r.field('clientUserId').optionalString(100);
    const witnessFor = type === 'witness' ? r.field('witnessFor').optionalString(100) : undefined;
    // DocuSign's limit, as at create; a carbon copy's is refused by its field rule.
    // Blank asks for nothing (as the field rules read it): the code stays.
    const rawCode = type === 'carbonCopy' ? undefined : r.field('accessCode').optionalString(50);
    const accessCode = rawCode === '' ? undefined : rawCode;
    // A one-time passcode check, read as a create reads it (a carbon copy's is refused by its
    // field rule); correctRecipients accepts only the recipient's own.
    const passcode = type === 'carbonCopy' ? undefined : parseRecipientAuthentication(r, email ?? '');
    return {
      recipientId, type,
      ...(accessCode !== undefined ? { accessCode } : {}),
      ...(passcode !== undefined ? { passcode } : {}),
      ...(witnessFor !== undefined ? { witnessFor } : {}),
      ...(hostName !== undefined || hostEmail !== undefined ? { host: { ...(hostName !== undefined ? { name: hostName } : {}), ...(hostEmail !== undefined ? { email: hostEmail } : {}) } } : {}),
      ...(name !== undefined ? { name } : {}),
      ...(email !== undefined ? { email } : {}),
      ...(routingOrder !== undefined ? { routingOrder } : {}),
      ...(clientUserId !== undefined ? { clientUserId } : {}),
    };
  });
  assertUnique(corrections.map((c) => c.recipientId), 'recipientId', 'recipients');
  return corrections;
}

/** The body of EnvelopesApi.deleteRecipients: the recipientIds of the listed recipients (other fields are not read). */
export function parseRecipientRemovals(body: unknown): RecipientRemoval[] {
  const removals = entries(body).map(({ reader, type }) => ({ recipientId: reader.field('recipientId').string(100), type }));
  assertUnique(removals.map((r) => r.recipientId), 'recipientId', 'recipients');
  return removals;
}
