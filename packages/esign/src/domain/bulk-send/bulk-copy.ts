import { EsignError } from '../../errors.ts';

/**
 * A bulk send list (DocuSign BulkSendingList, docusign-esign src/model/BulkSendingList.js): one
 * copy of an envelope per row, each naming who gets it and what differs in it.
 */
export type BulkCopyTab = { readonly tabLabel: string; readonly value: string };

/**
 * One recipient of a copy (BulkSendingCopyRecipient): it replaces the envelope's recipient of the
 * same recipientId or, else, of the same roleName (case folded, as DocuSign matches role names).
 */
export type BulkCopyRecipient = {
  readonly recipientId?: string;
  readonly roleName?: string;
  readonly name?: string;
  readonly email?: string;
  readonly clientUserId?: string;
  readonly tabs: readonly BulkCopyTab[];
};

/** One row (BulkSendingCopy): its recipients, envelope custom field values, subject and blurb. */
export type BulkCopy = {
  readonly recipients: readonly BulkCopyRecipient[];
  readonly customFields: readonly { readonly name: string; readonly value: string }[];
  readonly emailSubject?: string;
  readonly emailBlurb?: string;
};

export type BulkListDraft = { readonly name: string; readonly copies: readonly BulkCopy[] };

export type BulkList = {
  readonly listId: string;
  readonly accountId: string;
  readonly name: string;
  readonly createdByUserId: string;
  readonly createdAt: Date;
  readonly copyCount: number;
};

// DocuSign "BulkSend Resource": a bulk send list sends up to 1,000 copies at a time.
export const MAX_BULK_COPIES = 1000;
// DocuSign: an account holds at most 2,000 envelopes in its bulk send queue at a time.
export const MAX_BULK_QUEUE = 2000;
export const MAX_BULK_LIST_NAME = 100;

/** A list's size within DocuSign's limit; an empty list sends nothing and is refused too. */
export function assertListSize(count: number): void {
  if (count > MAX_BULK_COPIES) throw new EsignError('BULK_SEND_MAX_COPIES_EXCEEDED', `The list has ${count} copies; at most ${MAX_BULK_COPIES} are allowed.`);
  if (count === 0) throw new EsignError('INVALID_REQUEST_BODY', 'bulkSendingList.bulkCopies must list at least one copy.');
}
