import type { Envelope, Recipient } from '../envelope/envelope.ts';
import type { CustomField } from '../envelope/custom-fields.ts';
import type { PlacedTab } from '../envelope/placed-tab.ts';
import type { TabType } from '../tabs/tab.ts';
import type { BulkCopy, BulkCopyRecipient } from './bulk-copy.ts';

// The tab types whose value a copy may set (BulkSendingCopyTab.initialValue): those whose value
// is free text the sender may prefill. Checkboxes, radios and lists keep the draft's choice.
const VALUE_TYPES: ReadonlySet<TabType> = new Set<TabType>(['text', 'company', 'title', 'date', 'email', 'zip', 'ssn', 'number', 'numerical', 'note']);

/** The draft's recipient a copy's recipient stands for: by recipientId, else by roleName (case folded). */
function target(source: Envelope, r: BulkCopyRecipient): Recipient | undefined {
  if (r.recipientId !== undefined) return source.recipients.find((s) => s.recipientId === r.recipientId);
  const role = r.roleName?.toLowerCase();
  return role === undefined ? undefined : source.recipients.find((s) => s.roleName?.toLowerCase() === role);
}

function who(r: BulkCopyRecipient): string {
  return r.recipientId !== undefined ? `recipientId "${r.recipientId}"` : `roleName "${r.roleName ?? ''}"`;
}

/**
 * Why a copy cannot be made of the draft (DocuSign's createBulkSendTestRequest checks): every
 * recipient of the copy names exactly one recipient of the draft, no two the same; its tabs name
 * tabs of that recipient that take a value; its custom fields name the draft's. Each problem
 * names the row (1-based).
 */
export function copyProblems(source: Envelope, copy: BulkCopy, row: number): string[] {
  const problems: string[] = [];
  const taken = new Set<string>();
  for (const r of copy.recipients) {
    const s = target(source, r);
    if (!s) {
      problems.push(`row ${row}: ${who(r)} names no recipient of the envelope.`);
      continue;
    }
    if (taken.has(s.recipientId)) problems.push(`row ${row}: two recipients stand for recipientId "${s.recipientId}".`);
    taken.add(s.recipientId);
    for (const t of r.tabs) {
      const tabs = s.tabs.filter((p) => labelOf(p)?.toLowerCase() === t.tabLabel.toLowerCase());
      if (tabs.length === 0) problems.push(`row ${row}: ${who(r)} has no tab labelled "${t.tabLabel}".`);
      else if (tabs.some((p) => !VALUE_TYPES.has(p.tab.type))) problems.push(`row ${row}: the tab labelled "${t.tabLabel}" is a ${tabs.find((p) => !VALUE_TYPES.has(p.tab.type))?.tab.type ?? ''} tab, whose value a copy cannot set.`);
    }
  }
  const names = new Set((source.customFields ?? []).map((f) => f.name.toLowerCase()));
  for (const f of copy.customFields) if (!names.has(f.name.toLowerCase())) problems.push(`row ${row}: custom field "${f.name}" is not one of the envelope's (add it to the draft first).`);
  return problems;
}

function labelOf(p: PlacedTab): string | undefined {
  return p.tab.type === 'radioGroup' ? p.tab.groupName : p.tab.tabLabel;
}

/**
 * The recipients of one copy: the draft's, each with a new guid and new tab ids (ids are unique
 * across envelopes), the copy's name, e-mail, clientUserId and tab values where it gives them.
 * `copyProblems` has passed.
 */
export function copyRecipients(source: Envelope, copy: BulkCopy, uuid: () => string): Recipient[] {
  const byTarget = new Map<string, BulkCopyRecipient>();
  for (const r of copy.recipients) {
    const s = target(source, r);
    if (s) byTarget.set(s.recipientId, r);
  }
  return source.recipients.map((s) => {
    const c = byTarget.get(s.recipientId);
    const values = new Map((c?.tabs ?? []).map((t) => [t.tabLabel.toLowerCase(), t.value]));
    const tabs = s.tabs.map((p): PlacedTab => {
      const value = values.get(labelOf(p)?.toLowerCase() ?? '');
      return { ...p, tabId: uuid(), ...(p.radios ? { radios: p.radios.map((radio) => ({ ...radio, tabId: uuid() })) } : {}), ...(value !== undefined ? { value } : {}) };
    });
    return {
      ...s,
      recipientIdGuid: uuid(),
      status: 'created',
      ...(c?.name !== undefined ? { name: c.name } : {}),
      ...(c?.email !== undefined ? { email: c.email } : {}),
      ...(c?.clientUserId !== undefined ? { clientUserId: c.clientUserId } : {}),
      tabs,
    };
  });
}

/** The draft's custom fields with the copy's values (names matched case folded). */
export function copyCustomFields(source: Envelope, copy: BulkCopy): CustomField[] {
  const values = new Map(copy.customFields.map((f) => [f.name.toLowerCase(), f.value]));
  return (source.customFields ?? []).map((f) => {
    const value = values.get(f.name.toLowerCase());
    return value !== undefined ? { ...f, value } : f;
  });
}
