import type { FastifyInstance } from 'fastify';
import { getTemplate } from '../../domain/templates/create-template.ts';
import { addTemplateRoles, addTemplateTabs, deleteTemplateRoles, deleteTemplateTabs, updateTemplateRoles, updateTemplateTabs } from '../../domain/templates/edit-template-content.ts';
import type { Template } from '../../domain/templates/template.ts';
import type { TemplateDeps } from '../../domain/templates/template-deps.ts';
import { EsignError } from '../../errors.ts';
import { toWireTemplateRecipients, toWireTemplateRole } from '../../wire/to-wire-template.ts';
import { WireReader } from '../../wire/wire-reader.ts';
import { parseTemplateRoles } from './parse-template-definition.ts';
import { parseRecipientIds, parseRolePatches } from './parse-template-edits.ts';
import { parseNewTabs, parseTabIds, parseTabPatches } from '../../wire/parse-tab-edits.ts';
import { BASE, type TemplateParams } from './template-routes.ts';

/**
 * Template recipients and their tabs (TemplatesApi createRecipients, updateRecipients,
 * deleteRecipient(s), listTabs, createTabs, updateTabs, deleteTabs). New and moved tabs are
 * placed on the template's stored PDFs by the envelopes' own prepareContent.
 */
export function registerTemplateRecipientRoutes(app: FastifyInstance, deps: TemplateDeps): void {
  type RecipientParams = TemplateParams & { recipientId: string };
  const roleTabs = (t: Template, recipientId: string, only?: (id: string) => boolean) => {
    const role = t.roles.find((r) => r.recipientId === recipientId);
    if (!role) throw new EsignError('UNKNOWN_ENVELOPE_RECIPIENT', `recipientId "${recipientId}"`);
    const wire = toWireTemplateRole({ ...role, tabs: role.tabs.filter((x) => !only || only(x.tabId)) }, true) as { tabs?: unknown };
    return wire.tabs ?? { signHereTabs: [] };
  };

  app.post<{ Params: TemplateParams }>(`${BASE}/:templateId/recipients`, async (request, reply) => {
    const { accountId, templateId } = request.params;
    const drafts = parseTemplateRoles(new WireReader('', request.body ?? {}));
    if (drafts.length === 0) throw new EsignError('INVALID_REQUEST_BODY', 'Name at least one recipient to add.');
    const t = await addTemplateRoles(deps, accountId, templateId, drafts);
    const added = new Set(drafts.map((d) => d.recipientId));
    return reply.code(201).send(toWireTemplateRecipients({ ...t, roles: t.roles.filter((r) => added.has(r.recipientId)) }, true));
  });

  app.put<{ Params: TemplateParams }>(`${BASE}/:templateId/recipients`, async (request) => {
    const patches = parseRolePatches(request.body);
    await updateTemplateRoles(deps, request.params.accountId, request.params.templateId, patches);
    return { recipientUpdateResults: patches.map((p) => ({ recipientId: p.recipientId })) };
  });

  app.delete<{ Params: TemplateParams }>(`${BASE}/:templateId/recipients`, async (request) => {
    const t = await deleteTemplateRoles(deps, request.params.accountId, request.params.templateId, parseRecipientIds(request.body));
    return toWireTemplateRecipients(t, false);
  });

  app.delete<{ Params: RecipientParams }>(`${BASE}/:templateId/recipients/:recipientId`, async (request) => {
    const t = await deleteTemplateRoles(deps, request.params.accountId, request.params.templateId, [request.params.recipientId]);
    return toWireTemplateRecipients(t, false);
  });

  app.get<{ Params: RecipientParams }>(`${BASE}/:templateId/recipients/:recipientId/tabs`, async (request) => {
    const t = await getTemplate(deps, request.params.accountId, request.params.templateId);
    return roleTabs(t, request.params.recipientId);
  });

  app.post<{ Params: RecipientParams }>(`${BASE}/:templateId/recipients/:recipientId/tabs`, async (request, reply) => {
    const { accountId, templateId, recipientId } = request.params;
    const before = new Set((await getTemplate(deps, accountId, templateId)).roles.find((r) => r.recipientId === recipientId)?.tabs.map((x) => x.tabId));
    const t = await addTemplateTabs(deps, accountId, templateId, recipientId, parseNewTabs(request.body, recipientId));
    return reply.code(201).send(roleTabs(t, recipientId, (id) => !before.has(id)));
  });

  app.put<{ Params: RecipientParams }>(`${BASE}/:templateId/recipients/:recipientId/tabs`, async (request) => {
    const { accountId, templateId, recipientId } = request.params;
    const role = (await getTemplate(deps, accountId, templateId)).roles.find((r) => r.recipientId === recipientId);
    if (!role) throw new EsignError('UNKNOWN_ENVELOPE_RECIPIENT', `recipientId "${recipientId}"`);
    const patches = parseTabPatches(request.body, role.tabs, role);
    const t = await updateTemplateTabs(deps, accountId, templateId, recipientId, patches);
    return roleTabs(t, recipientId);
  });

  app.delete<{ Params: RecipientParams }>(`${BASE}/:templateId/recipients/:recipientId/tabs`, async (request) => {
    const { accountId, templateId, recipientId } = request.params;
    const role = (await getTemplate(deps, accountId, templateId)).roles.find((r) => r.recipientId === recipientId);
    if (!role) throw new EsignError('UNKNOWN_ENVELOPE_RECIPIENT', `recipientId "${recipientId}"`);
    const t = await deleteTemplateTabs(deps, accountId, templateId, recipientId, parseTabIds(request.body, role.tabs, recipientId));
    return roleTabs(t, recipientId);
  });
}
