import { MAX_BULK_COPIES, MAX_BULK_LIST_NAME, type BulkCopy, type BulkCopyRecipient, type BulkListDraft } from '../domain/bulk-send/bulk-copy.ts';
import { normalizeEmail } from '../domain/email-address.ts';
import { MAX_CUSTOM_FIELD_NAME, MAX_CUSTOM_FIELD_VALUE } from '../domain/envelope/custom-fields.ts';
import { EsignError } from '../errors.ts';
import { checkModelFields, type ModelFieldRule } from './check-model-fields.ts';
import { WireReader } from './wire-reader.ts';

const honoured: ModelFieldRule = { rule: 'honoured' };
const refused = (why: string): ModelFieldRule => ({ rule: 'refused', why });
const AUTH = 'recipient authentication in a bulk copy is not supported yet: set it on the draft envelope';

/** BulkSendingCopyRecipient (docusign-esign src/model): what each field does here. */
const RECIPIENT_RULES: Readonly<Record<string, ModelFieldRule>> = {
  recipientId: honoured, roleName: honoured, name: honoured, email: honoured, clientUserId: honoured, tabs: honoured,
  // Mail is the one delivery method (as for an envelope's recipients).
  deliveryMethod: { rule: 'limited', why: 'only e-mail delivery is supported', allow: ['email'] },
  accessCode: refused(AUTH), identityVerification: refused(AUTH), phoneAuthentication: refused(AUTH), smsAuthentication: refused(AUTH),
  idCheckConfigurationName: refused(AUTH), idCheckInformationInput: refused(AUTH), socialAuthentications: refused(AUTH), identificationMethod: refused(AUTH),
  customFields: refused('recipient custom fields are not supported'),
  emailNotification: refused("a copy recipient's own language, subject or message is not supported yet"),
  embeddedRecipientStartURL: refused('embedded start URLs are not supported'),
  faxNumber: refused('fax delivery is not supported'),
  hostEmail: refused('in-person signers in bulk copies are not supported'), hostName: refused('in-person signers in bulk copies are not supported'),
  signerName: refused('in-person signers in bulk copies are not supported'),
  note: refused('recipient notes are not supported'),
  recipientSignatureProviders: refused('signature providers are not supported'),
  signingGroupId: refused('signing groups are not supported'),
};
const COPY_RULES: Readonly<Record<string, ModelFieldRule>> = {
  recipients: honoured, customFields: honoured, emailSubject: honoured, emailBlurb: honoured,
  docGenFormFields: refused('document generation is not supported'),
  prefillTabs: refused('prefill (sender) tabs are not supported'),
};

function row(n: number): string {
  return `bulkCopies row ${n}`;
}

function parseRecipient(r: WireReader, n: number): BulkCopyRecipient {
  if (r.object() === undefined) r.fail('must be a BulkSendingCopyRecipient object.');
  checkModelFields(r, 'BulkSendingCopyRecipient', RECIPIENT_RULES);
  const recipientId = r.field('recipientId').optionalString(100);
  const roleName = r.field('roleName').optionalString(100);
  if (recipientId === undefined && roleName === undefined) throw new EsignError('INVALID_REQUEST_BODY', `${row(n)}: each recipient names the envelope's recipient it stands for by recipientId or roleName.`);
  const rawEmail = r.field('email').optionalString(254);
  let email: string | undefined;
  if (rawEmail !== undefined) {
    try {
      email = normalizeEmail(rawEmail);
    } catch {
      // DocuSign's code for a bad recipient address; which row and recipient follow.
      throw new EsignError('INVALID_EMAIL_ADDRESS_FOR_RECIPIENT', `${row(n)}, ${recipientId !== undefined ? `recipientId ${recipientId}` : `roleName ${roleName ?? ''}`}: "${rawEmail}" is not an e-mail address.`);
    }
  }
  const name = r.field('name').optionalString(100);
  const clientUserId = r.field('clientUserId').optionalString(100);
  const tabs = r.field('tabs').items().map((t) => {
    if (t.object() === undefined) t.fail('must be a BulkSendingCopyTab object.');
    checkModelFields(t, 'BulkSendingCopyTab', { tabLabel: honoured, initialValue: honoured });
    return { tabLabel: t.field('tabLabel').string(100), value: t.field('initialValue').optionalString(4000) ?? '' };
  });
  return { ...(recipientId !== undefined ? { recipientId } : {}), ...(roleName !== undefined ? { roleName } : {}), ...(name !== undefined ? { name } : {}), ...(email !== undefined ? { email } : {}), ...(clientUserId !== undefined ? { clientUserId } : {}), tabs };
}

function parseCopy(c: WireReader, n: number): BulkCopy {
  if (c.object() === undefined) c.fail('must be a BulkSendingCopy object.');
  checkModelFields(c, 'BulkSendingCopy', COPY_RULES);
  const recipients = c.field('recipients').items().map((r) => parseRecipient(r, n));
  if (recipients.length === 0) throw new EsignError('INVALID_REQUEST_BODY', `${row(n)}: a copy names at least one recipient.`);
  const customFields = c.field('customFields').items().map((f) => {
    checkModelFields(f, 'BulkSendingCopyCustomField', { name: honoured, value: honoured });
    return { name: f.field('name').string(MAX_CUSTOM_FIELD_NAME), value: f.field('value').optionalString(MAX_CUSTOM_FIELD_VALUE) ?? '' };
  });
  const emailSubject = c.field('emailSubject').optionalString(100);
  const emailBlurb = c.field('emailBlurb').optionalString(10_000);
  return { recipients, customFields, ...(emailSubject !== undefined ? { emailSubject } : {}), ...(emailBlurb !== undefined ? { emailBlurb } : {}) };
}

/**
 * A BulkSendingList (createBulkSendList, updateBulkSendList bodies). Its size is checked before
 * any copy is read: a list over DocuSign's 1,000 copies is refused as a whole.
 */
export function parseBulkSendingList(body: unknown): BulkListDraft {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new EsignError('INVALID_REQUEST_BODY', 'The body must be a JSON BulkSendingList object.');
  const root = new WireReader('', body);
  checkModelFields(root, 'BulkSendingList', { name: honoured, bulkCopies: honoured, listId: { rule: 'output' } });
  const name = root.field('name').string(MAX_BULK_LIST_NAME);
  const copies = root.field('bulkCopies');
  const count = Array.isArray(copies.value) ? copies.value.length : 0;
  if (count > MAX_BULK_COPIES) throw new EsignError('BULK_SEND_MAX_COPIES_EXCEEDED', `bulkCopies has ${count} copies; at most ${MAX_BULK_COPIES} are allowed.`);
  return { name, copies: copies.items().map((c, i) => parseCopy(c, i + 1)) };
}
