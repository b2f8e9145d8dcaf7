import type { Envelope } from '../domain/envelope/envelope.ts';
import type { SystemFolder } from '../domain/envelope/folders.ts';
import { expiresAt } from '../domain/notification/notification-schedule.ts';
import { toDocuSignDateTime } from './docusign-date-time.ts';
import type { WireFolder, WireFolderItem } from './wire-types.ts';

/** A system folder as FoldersApi.list shows it (no sub-folders exist here). */
export function toWireFolder(folder: SystemFolder, items?: { count: number; envelopes?: readonly Envelope[] }): WireFolder {
  return {
    folderId: folder.folderId,
    name: folder.name,
    type: folder.type,
    uri: `/folders/${folder.folderId}`,
    hasSubFolders: 'false',
    subFolderCount: '0',
    ...(items ? { itemCount: String(items.count) } : {}),
    ...(items?.envelopes ? { folderItems: items.envelopes.map((e) => toWireFolderItem(folder, e)) } : {}),
  };
}

/** One envelope in a folder's listing (FolderItemV2). */
export function toWireFolderItem(folder: SystemFolder, e: Envelope): WireFolderItem {
  const expires = expiresAt(e);
  return {
    envelopeId: e.envelopeId,
    envelopeUri: `/envelopes/${e.envelopeId}`,
    status: e.status,
    subject: e.emailSubject,
    folderId: folder.folderId,
    folderUri: `/folders/${folder.folderId}`,
    senderUserId: e.senderUserId,
    createdDateTime: toDocuSignDateTime(e.createdAt),
    lastModifiedDateTime: toDocuSignDateTime(e.statusChangedAt),
    ...(e.sentAt ? { sentDateTime: toDocuSignDateTime(e.sentAt) } : {}),
    ...(e.completedAt ? { completedDateTime: toDocuSignDateTime(e.completedAt) } : {}),
    ...(expires ? { expireDateTime: toDocuSignDateTime(expires) } : {}),
  };
}
