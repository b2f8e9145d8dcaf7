import { normalizeEmail } from '../../domain/email-address.ts';
import type { RecipientDraft } from '../../domain/envelope/envelope-draft.ts';
import { EsignError } from '../../errors.ts';
import { checkModelFields } from '../../wire/check-model-fields.ts';
import { IN_PERSON_SIGNER_FIELDS } from '../../wire/envelope-field-rules.ts';
import { parseRecipientAuthentication } from '../../wire/parse-recipient-authentication.ts';
import type { WireReader } from '../../wire/wire-reader.ts';
import { parseRecipientLanguage } from '../../wire/parse-recipient-language.ts';
import { recipientTabs } from './parse-envelope-definition.ts';

const MAX_ROUTING_ORDER = 999;

function email(r: WireReader, field: string, recipientId: string, required: boolean): string | undefined {
  const raw = r.field(field).optionalString(254);
  if (raw === undefined && !required) return undefined;
  try {
    return normalizeEmail(raw ?? '');
  } catch {
    throw new EsignError('INVALID_EMAIL_ADDRESS_FOR_RECIPIENT', `recipientId ${recipientId}: ${field}${raw ? ` ("${raw}")` : ' is missing'}`);
  }
}

/**
 * One of Recipients.inPersonSigners (docusign-esign src/model/InPersonSigner.js), as DocuSign's
 * signingInPerson example sends it: the host (hostName, hostEmail) gets the mail and the link
 * and hands their device to the signer (signerName, and signerEmail for the completed copy;
 * without it the copy goes to the host). Notary signing is refused by the field table.
 */
export function parseInPersonSigner(r: WireReader, options: { role?: boolean } = {}): RecipientDraft {
  if (r.object() === undefined) r.fail('must be an InPersonSigner object.');
  checkModelFields(r, 'InPersonSigner', IN_PERSON_SIGNER_FIELDS);
  const recipientId = r.field('recipientId').string(100);
  // A template role may leave the host and the signer for templateRoles to fill (name and email
  // there are the host's, inPersonSignerName the signer's); its access checks stay refused as
  // any role's are (parse-envelope-definition.ts parseRecipient).
  const role = options.role === true;
  const hostEmail = email(r, 'hostEmail', recipientId, !role) ?? '';
  const hostName = role ? r.field('hostName').optionalString(100) ?? '' : r.field('hostName').string(100);
  const signerName = r.field('signerName').optionalString(100) ?? r.field('name').optionalString(100) ?? ([r.field('signerFirstName').optionalString(50), r.field('signerLastName').optionalString(50)].filter(Boolean).join(' ') || (role ? '' : r.field('signerName').fail('is required.')));
  const signerEmail = email(r, 'signerEmail', recipientId, false);
  if (role) {
    if (r.field('accessCode').optionalString(50) !== undefined) r.field('accessCode').fail('is not supported on templates and template roles yet.');
    if (parseRecipientAuthentication(r, signerEmail ?? hostEmail) !== undefined) r.fail('asks for a one-time passcode check, which templates and template roles do not support yet.');
    if (parseRecipientLanguage(r) !== undefined) r.field('emailNotification').fail('is not supported on templates and template roles yet.');
    const clientUserId = r.field('clientUserId').optionalString(100);
    const routingOrder = r.field('routingOrder').optionalInteger(1, MAX_ROUTING_ORDER) ?? 1;
    return { type: 'inPersonSigner', recipientId, email: signerEmail ?? '', name: signerName, routingOrder, host: { name: hostName, email: hostEmail }, ...(clientUserId !== undefined ? { clientUserId } : {}), tabs: recipientTabs(r, 'inPersonSigner', recipientId) };
  }
  const routingOrder = r.field('routingOrder').optionalInteger(1, MAX_ROUTING_ORDER) ?? 1;
  const clientUserId = r.field('clientUserId').optionalString(100);
  const accessCode = r.field('accessCode').optionalString(50);
  const passcode = parseRecipientAuthentication(r, signerEmail ?? hostEmail);
  const language = parseRecipientLanguage(r);
  const tabs = recipientTabs(r, 'inPersonSigner', recipientId);
  return {
    type: 'inPersonSigner', recipientId, email: signerEmail ?? hostEmail, name: signerName, routingOrder, host: { name: hostName, email: hostEmail },
    ...(language !== undefined ? { language } : {}),
    ...(clientUserId !== undefined ? { clientUserId } : {}), ...(accessCode !== undefined ? { accessCode } : {}), ...(passcode ? { passcode } : {}), tabs,
  };
}
