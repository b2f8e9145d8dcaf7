import type { BulkCopy, BulkList } from '../domain/bulk-send/bulk-copy.ts';
import type { BulkBatch, BulkBatchProgress } from '../domain/bulk-send/bulk-ports.ts';
import { MAX_BULK_COPIES, MAX_BULK_QUEUE } from '../domain/bulk-send/bulk-copy.ts';
import { toDocuSignDateTime } from './docusign-date-time.ts';

/** BulkSendingList (docusign-esign src/model/BulkSendingList.js), its copies as they were given. */
export function toWireBulkSendingList(list: BulkList, copies: readonly BulkCopy[]) {
  return {
    listId: list.listId,
    name: list.name,
    bulkCopies: copies.map((c) => ({
      recipients: c.recipients.map((r) => ({
        ...(r.recipientId !== undefined ? { recipientId: r.recipientId } : {}),
        ...(r.roleName !== undefined ? { roleName: r.roleName } : {}),
        ...(r.name !== undefined ? { name: r.name } : {}),
        ...(r.email !== undefined ? { email: r.email } : {}),
        ...(r.clientUserId !== undefined ? { clientUserId: r.clientUserId } : {}),
        tabs: r.tabs.map((t) => ({ tabLabel: t.tabLabel, initialValue: t.value })),
      })),
      customFields: c.customFields.map((f) => ({ name: f.name, value: f.value })),
      ...(c.emailSubject !== undefined ? { emailSubject: c.emailSubject } : {}),
      ...(c.emailBlurb !== undefined ? { emailBlurb: c.emailBlurb } : {}),
    })),
  };
}

/** BulkSendingListSummaries. */
export function toWireBulkListSummaries(lists: readonly BulkList[]) {
  return { bulkListSummaries: lists.map((l) => ({ bulkSendListId: l.listId, name: l.name, createdByUser: l.createdByUserId, createdDate: toDocuSignDateTime(l.createdAt) })) };
}

/** BulkSendResponse: the batch queued. */
export function toWireBulkSendResponse(batch: BulkBatch, totalQueued: number) {
  return {
    batchId: batch.batchId, batchName: batch.name, batchSize: String(batch.size), envelopeOrTemplateId: batch.sourceEnvelopeId,
    errors: [], errorDetails: [], queueLimit: String(MAX_BULK_QUEUE), totalQueued: String(totalQueued),
  };
}

/** BulkSendTestResponse. */
export function toWireBulkSendTest(test: { canBeSent: boolean; problems: readonly string[] }) {
  return { canBeSent: test.canBeSent, validationErrors: test.problems.length > 0 ? ['BULK_SEND_ENVELOPE_NOT_SENDABLE'] : [], validationErrorDetails: [...test.problems] };
}

/** BulkSendBatchStatus: counts by row outcome, the failed rows with why. */
export function toWireBulkBatchStatus(b: BulkBatchProgress, envelopesUri: string) {
  return {
    batchId: b.batchId, batchName: b.name, batchSize: String(b.size), envelopeIdOrTemplateId: b.sourceEnvelopeId,
    mailingListId: b.listId, mailingListName: b.listName, ownerUserId: b.senderUserId, senderUserId: b.senderUserId,
    queued: String(b.queued), sent: String(b.sent), failed: String(b.failed), submittedDate: toDocuSignDateTime(b.submittedAt),
    envelopesUri,
    bulkErrors: b.errors.map((e) => ({ created: toDocuSignDateTime(e.at), errorMessage: `row ${e.row}: ${e.message}`, recipientEmails: [...e.recipientEmails] })),
  };
}

/** BulkSendBatchSummaries: one page of the account's batches. */
export function toWireBulkBatchSummaries(page: { batches: readonly BulkBatchProgress[]; total: number }, start: number, batchUri: (id: string) => string, totalQueued: number) {
  return {
    bulkBatchSummaries: page.batches.map((b) => ({
      batchId: b.batchId, batchName: b.name, batchSize: String(b.size), batchUri: batchUri(b.batchId),
      queued: String(b.queued), sent: String(b.sent), failed: String(b.failed), submittedDate: toDocuSignDateTime(b.submittedAt),
    })),
    resultSetSize: String(page.batches.length), totalSetSize: String(page.total), startPosition: String(start),
    endPosition: String(Math.max(start, start + page.batches.length - 1)),
    batchSizeLimit: String(MAX_BULK_COPIES), queueLimit: String(MAX_BULK_QUEUE), totalQueued: String(totalQueued),
  };
}
