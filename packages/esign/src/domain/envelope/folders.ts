import { EsignError } from '../../errors.ts';

/**
 * DocuSign's system folders (FoldersApi.list; "Folders" in the eSignature REST reference). An
 * envelope's folder is not stored: it follows from the envelope, as DocuSign's own folders do
 * for the sender (a draft is in Draft, a sent envelope in Sent Items, one sent to the caller in
 * Inbox), except the recycle bin, which is where FoldersApi.moveEnvelopes puts a deleted one.
 * User-made folders do not exist here (docs/esign-envelopes.md, Folders).
 */
export type FolderType = 'inbox' | 'sentitems' | 'draft' | 'recyclebin';

export type SystemFolder = { readonly folderId: FolderType; readonly name: string; readonly type: FolderType };

/** In DocuSign's order; the folder id is the type, which DocuSign's moveEnvelopes also takes as a folderId. */
export const SYSTEM_FOLDERS: readonly SystemFolder[] = [
  { folderId: 'inbox', name: 'Inbox', type: 'inbox' },
  { folderId: 'sentitems', name: 'Sent Items', type: 'sentitems' },
  { folderId: 'draft', name: 'Draft', type: 'draft' },
  { folderId: 'recyclebin', name: 'Deleted Items', type: 'recyclebin' },
];

/** DocuSign's spellings of the system folders in folder_ids/folder_types, and the folder each names. */
const ALIASES = new Map<string, FolderType>([
  ['inbox', 'inbox'],
  ['sentitems', 'sentitems'],
  ['draft', 'draft'],
  ['drafts', 'draft'],
  ['recyclebin', 'recyclebin'],
]);

/**
 * The folder a folderId names (case-insensitive), or DocuSign's refusal of an unknown folder id naming it: a
 * folder we do not have (a user folder's GUID, awaiting_my_signature...) is refused, never
 * answered as if it were empty.
 */
export function folderOf(folderId: string): SystemFolder {
  const type = ALIASES.get(folderId.trim().toLowerCase());
  const folder = SYSTEM_FOLDERS.find((f) => f.type === type);
  if (!folder) throw new EsignError('ACCOUNT_LACKS_PERMISSIONS', `folderId "${folderId}": this server has only the system folders ${SYSTEM_FOLDERS.map((f) => f.folderId).join(', ')}.`);
  return folder;
}
