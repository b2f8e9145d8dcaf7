import { EsignError } from '../../errors.ts';
import { prepareContent } from '../envelope/create-envelope.ts';
import { replaceDocuments, type DocumentsChange } from '../envelope/replace-documents.ts';
import type { DocumentDraft } from '../envelope/envelope-draft.ts';
import type { PlacedTab } from '../envelope/placed-tab.ts';
import type { Tab } from '../tabs/tab.ts';
import { checkTabRelations } from '../tabs/check-tab-relations.ts';
import { assertDistinctRoleNames, getTemplate, toTemplateRole } from './create-template.ts';
import { assertWitnesses } from '../envelope/witnesses.ts';
import { assertVisibility } from '../envelope/document-visibility.ts';
import { signsDocuments } from '../envelope/recipient-kinds.ts';
import type { Template, TemplateRole } from './template.ts';
import type { TemplateDeps } from './template-deps.ts';
import type { TemplateRoleDraft } from './template-draft.ts';
import { assertEnvelopeSize } from '../envelope/envelope-limits.ts';

// A concurrent edit makes the store refuse ours; we read again and retry a few times.
const MAX_ATTEMPTS = 3;

/** The fields updateRecipients changes; tabs have their own calls. A host is patched field by field. */
export type RolePatch = { readonly recipientId: string; readonly host?: { readonly name?: string; readonly email?: string } }
  & Partial<Pick<TemplateRole, 'roleName' | 'name' | 'email' | 'routingOrder' | 'clientUserId' | 'witnessFor' | 'agentCanEditName' | 'agentCanEditEmail' | 'excludedDocuments'>>;

/** What updateTabs makes of one tab: the tab it becomes (its stored fields with the request's over them, parsed again). */
export type TabPatch = { readonly tabId: string; readonly tab: Tab };

/**
 * Applies `edit` to the stored template and saves the result, unless someone changed the
 * template in between (then reads it again and retries). `edit` may place tabs with `place`.
 */
export async function editTemplate(deps: TemplateDeps, accountId: string, templateId: string, edit: (t: Template, place: Placer) => Promise<Template | Edited>): Promise<Template> {
  for (let attempt = 1; ; attempt++) {
    const current = await getTemplate(deps, accountId, templateId);
    const result = await edit(current, placerFor(deps, current));
    const { template: edited, pdfs } = 'template' in result ? result : { template: result, pdfs: new Map<string, Uint8Array>() };
    const now = deps.envelopes.clock();
    // Strictly later than the version it replaces, so the next edit's check cannot match an older one.
    const lastModifiedAt = new Date(Math.max(now.getTime(), current.lastModifiedAt.getTime() + 1));
    const next = { ...edited, lastModifiedAt };
    if (await deps.templates.replaceContent(next, pdfs, current.lastModifiedAt)) return next;
    if (attempt >= MAX_ATTEMPTS) throw new EsignError('TEMPLATE_ID_INVALID', `templateId "${templateId}" changed while it was being edited; try again.`);
  }
}

/** An edit that also writes PDFs (documents added or replaced). */
type Edited = { readonly template: Template; readonly pdfs: ReadonlyMap<string, Uint8Array> };

/** Places tabs on a template's stored PDFs, through the envelopes' prepareContent (PDFs pass through unchanged). */
type Placer = (recipients: readonly { recipientId: string; tabs: readonly Tab[] }[]) => Promise<PlacedTab[][]>;

function placerFor(deps: TemplateDeps, t: Template): Placer {
  return async (recipients) => {
    if (recipients.every((r) => r.tabs.length === 0)) return recipients.map(() => []);
    return (await prepareContent(deps.envelopes, t.accountId, await storedDocuments(deps, t), recipients)).tabs;
  };
}

/** The template's stored PDFs as documents to prepare (a PDF passes through the converter unchanged). */
async function storedDocuments(deps: TemplateDeps, t: Template, ids: readonly string[] = t.documents.map((d) => d.documentId)): Promise<DocumentDraft[]> {
  return Promise.all(t.documents.filter((d) => ids.includes(d.documentId)).map(async (d) => {
    const bytes = await deps.templates.documentPdf(t.accountId, t.templateId, d.documentId);
    if (!bytes) throw new EsignError('DOCUMENT_DOES_NOT_EXIST', `documentId "${d.documentId}" of template "${t.templateId}"`);
    return { documentId: d.documentId, name: d.name, fileExtension: 'pdf', bytes };
  }));
}

/**
 * TemplatesApi.updateDocuments / updateDocument / deleteDocuments: documents added (by a new
 * documentId), replaced (by an existing one) or removed. Every anchored tab is searched again
 * across the new set of documents; a positioned tab stays where it was (checked against the
 * replacing page) and keeps its tabId, and goes with its document when that is removed.
 */
export function changeTemplateDocuments(deps: TemplateDeps, accountId: string, templateId: string, change: DocumentsChange): Promise<Template> {
  return editTemplate(deps, accountId, templateId, async (t) => {
    const count = t.documents.filter((d) => !change.remove.includes(d.documentId)).length + change.upsert.filter((d) => !t.documents.some((x) => x.documentId === d.documentId)).length;
    assertEnvelopeSize({ documents: count }, `Template "${templateId}"`);
    const content = await replaceDocuments(deps.envelopes, { accountId: t.accountId, documents: t.documents, holders: t.roles, what: `template "${templateId}"` }, (id) => deps.templates.documentPdf(t.accountId, t.templateId, id), change);
    const roles = t.roles.map((r, i) => ({ ...r, tabs: content.tabs[i] ?? [] }));
    return { template: { ...t, documents: content.documents, roles }, pdfs: content.pdfs };
  });
}

function roleOf(t: Template, recipientId: string): TemplateRole {
  const role = t.roles.find((r) => r.recipientId === recipientId);
  if (!role) throw new EsignError('UNKNOWN_ENVELOPE_RECIPIENT', `recipientId "${recipientId}" is not a recipient of template "${t.templateId}".`);
  return role;
}

/** The template with one role's tabs replaced, their relations (conditions, formulas) checked together. */
function withRoleTabs(t: Template, role: TemplateRole, tabs: PlacedTab[]): Template {
  checkTabRelations(tabs.map((x) => x.tab), `recipientId ${role.recipientId}`);
  return { ...t, roles: t.roles.map((r) => (r === role ? { ...r, tabs } : r)) };
}

/** excludedDocuments hides nothing on a template that does not enforce visibility: refused, as at create. */
function assertExclusionsEnforced(drafts: readonly TemplateRoleDraft[]): void {
  const excluding = drafts.find((d) => d.excludedDocuments !== undefined);
  if (excluding) throw new EsignError('INVALID_REQUEST_BODY', `recipientId ${excluding.recipientId}'s excludedDocuments is read only on a template with enforceSignerVisibility "true".`);
}

/** TemplatesApi.createRecipients: new roles of any type, their tabs placed on the template's documents. */
export function addTemplateRoles(deps: TemplateDeps, accountId: string, templateId: string, drafts: readonly TemplateRoleDraft[]): Promise<Template> {
  return editTemplate(deps, accountId, templateId, async (t, place) => {
    for (const d of drafts) if (t.roles.some((r) => r.recipientId === d.recipientId)) throw new EsignError('INVALID_REQUEST_BODY', `recipientId "${d.recipientId}" is already a recipient of the template; use updateRecipients.`);
    assertEnvelopeSize({ recipients: t.roles.length + drafts.length }, `Template "${templateId}"`);
    assertDistinctRoleNames([...t.roles.map((r) => r.roleName), ...drafts.map((d) => d.roleName)]);
    assertWitnesses([...t.roles, ...drafts], `template "${templateId}"`);
    if (!t.enforceSignerVisibility) assertExclusionsEnforced(drafts);
    const tabs = await place(drafts);
    const added: TemplateRole[] = drafts.map((d, i) => toTemplateRole(d, tabs[i] ?? []));
    assertVisibility(t.documents, added);
    return { ...t, roles: [...t.roles, ...added] };
  });
}

/** TemplatesApi.updateRecipients: the roles' own fields. */
export function updateTemplateRoles(deps: TemplateDeps, accountId: string, templateId: string, patches: readonly RolePatch[]): Promise<Template> {
  return editTemplate(deps, accountId, templateId, (t) => {
    for (const p of patches) {
      const role = roleOf(t, p.recipientId);
      if (p.host && !role.host) throw new EsignError('INVALID_REQUEST_BODY', `recipientId "${p.recipientId}" is a ${role.type}: hostName and hostEmail belong to an in-person signer.`);
      if (p.witnessFor !== undefined && role.type !== 'witness') throw new EsignError('INVALID_REQUEST_BODY', `recipientId "${p.recipientId}" is a ${role.type}: witnessFor belongs to a witness.`);
      if (p.excludedDocuments && p.excludedDocuments.length > 0 && !t.enforceSignerVisibility) throw new EsignError('INVALID_REQUEST_BODY', `recipientId ${p.recipientId}'s excludedDocuments is read only on a template with enforceSignerVisibility "true".`);
    }
    const roles = t.roles.map((r) => {
      const patch = patches.find((p) => p.recipientId === r.recipientId);
      if (!patch) return r;
      const { host, excludedDocuments, agentCanEditName, agentCanEditEmail, ...rest } = patch;
      const { excludedDocuments: _old, agentCanEditName: _n, agentCanEditEmail: _e, ...kept } = r;
      const excluded = excludedDocuments ?? r.excludedDocuments;
      const canName = agentCanEditName ?? r.agentCanEditName;
      const canEmail = agentCanEditEmail ?? r.agentCanEditEmail;
      return {
        ...kept, ...rest,
        ...(host && r.host ? { host: { name: host.name ?? r.host.name, email: host.email ?? r.host.email } } : {}),
        ...(excluded && excluded.length > 0 ? { excludedDocuments: excluded } : {}),
        ...(canName === true ? { agentCanEditName: true } : {}),
        ...(canEmail === true ? { agentCanEditEmail: true } : {}),
      };
    });
    assertVisibility(t.documents, roles);
    assertDistinctRoleNames(roles.map((r) => r.roleName));
    // A routing order moved must leave each witness after its signer.
    assertWitnesses(roles, `template "${templateId}" after this update`);
    return Promise.resolve({ ...t, roles });
  });
}

/** TemplatesApi.deleteRecipient(s): the roles go, with their tabs. */
export function deleteTemplateRoles(deps: TemplateDeps, accountId: string, templateId: string, recipientIds: readonly string[]): Promise<Template> {
  return editTemplate(deps, accountId, templateId, (t) => {
    for (const id of recipientIds) roleOf(t, id);
    const roles = t.roles.filter((r) => !recipientIds.includes(r.recipientId));
    // A signer goes only with its witness: a witness left watching nobody is refused.
    assertWitnesses(roles, `template "${templateId}" after this deletion`);
    return Promise.resolve({ ...t, roles });
  });
}

/** TemplatesApi.createTabs: more tabs for one role, placed now. */
export function addTemplateTabs(deps: TemplateDeps, accountId: string, templateId: string, recipientId: string, drafts: readonly Tab[]): Promise<Template> {
  return editTemplate(deps, accountId, templateId, async (t, place) => {
    const role = roleOf(t, recipientId);
    if (!signsDocuments(role)) throw new EsignError('INVALID_TAB_OPERATION', `recipientId "${recipientId}" is a ${role.type}: it fills in no tab.`);
    const [placed = []] = await place([{ recipientId, tabs: drafts }]);
    return withRoleTabs(t, role, [...role.tabs, ...placed]);
  });
}

/**
 * TemplatesApi.updateTabs: each named tab replaced by its patch's tab, placed again, keeping its
 * tabId. An anchor may match several times: the first match keeps the tabId, the others are new tabs.
 */
export function updateTemplateTabs(deps: TemplateDeps, accountId: string, templateId: string, recipientId: string, patches: readonly TabPatch[]): Promise<Template> {
  return editTemplate(deps, accountId, templateId, async (t, place) => {
    const role = roleOf(t, recipientId);
    for (const p of patches) if (!role.tabs.some((x) => x.tabId === p.tabId)) throw new EsignError('INVALID_TAB_OPERATION', `tabId "${p.tabId}" is not a tab of recipientId "${recipientId}".`);
    // One placing request per patch (one conversion for all), so each patch's matches stay apart.
    const placed = await place(patches.map((p) => ({ recipientId, tabs: [p.tab] })));
    const byTab = new Map<string, PlacedTab[]>(patches.map((p, i) => [p.tabId, (placed[i] ?? []).map((x, j) => (j === 0 ? { ...x, tabId: p.tabId } : x))]));
    return withRoleTabs(t, role, role.tabs.flatMap((x) => byTab.get(x.tabId) ?? [x]));
  });
}

/** TemplatesApi.deleteTabs. */
export function deleteTemplateTabs(deps: TemplateDeps, accountId: string, templateId: string, recipientId: string, tabIds: readonly string[]): Promise<Template> {
  return editTemplate(deps, accountId, templateId, (t) => {
    const role = roleOf(t, recipientId);
    for (const id of tabIds) if (!role.tabs.some((x) => x.tabId === id)) throw new EsignError('INVALID_TAB_OPERATION', `tabId "${id}" is not a tab of recipientId "${recipientId}".`);
    return Promise.resolve(withRoleTabs(t, role, role.tabs.filter((x) => !tabIds.includes(x.tabId))));
  });
}
