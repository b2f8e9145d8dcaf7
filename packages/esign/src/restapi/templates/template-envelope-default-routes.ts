import type { FastifyInstance } from 'fastify';
import { getTemplate } from '../../domain/templates/create-template.ts';
import type { TemplateDeps } from '../../domain/templates/template-deps.ts';
import { addTemplateCustomFields, deleteTemplateCustomFields, updateTemplateCustomFields, updateTemplateNotification } from '../../domain/templates/template-envelope-defaults.ts';
import { API_DEFAULT_SETTINGS } from '../../domain/notification/envelope-notification.ts';
import { EsignError } from '../../errors.ts';
import { parseCustomFieldPatches, parseCustomFields } from '../../wire/parse-custom-fields.ts';
import { parseNotificationRequest } from '../../wire/parse-notification.ts';
import { toWireCustomFields } from '../../wire/to-wire-custom-fields.ts';
import { toWireNotification } from '../../wire/to-wire-notification.ts';
import { customFieldsBody } from '../envelopes/custom-field-routes.ts';
import { BASE, type TemplateParams } from './template-routes.ts';

/**
 * What a template's envelopes start with (TemplatesApi listCustomFields, createCustomFields,
 * updateCustomFields, deleteCustomFields, getNotificationSettings, updateNotificationSettings),
 * read and answered in the envelopes' own shapes. Another account's template id is
 * TEMPLATE_ID_INVALID.
 */
export function registerTemplateEnvelopeDefaultRoutes(app: FastifyInstance, deps: TemplateDeps): void {
  const fields = `${BASE}/:templateId/custom_fields`;
  app.get<{ Params: TemplateParams }>(fields, async (request) => toWireCustomFields((await getTemplate(deps, request.params.accountId, request.params.templateId)).customFields ?? []));
  app.post<{ Params: TemplateParams }>(fields, async (request, reply) => {
    const drafts = parseCustomFields(customFieldsBody(request.body));
    return reply.code(201).send(toWireCustomFields(await addTemplateCustomFields(deps, request.params.accountId, request.params.templateId, drafts)));
  });
  app.put<{ Params: TemplateParams }>(fields, async (request) => toWireCustomFields(await updateTemplateCustomFields(deps, request.params.accountId, request.params.templateId, parseCustomFieldPatches(customFieldsBody(request.body)))));
  app.delete<{ Params: TemplateParams }>(fields, async (request) => toWireCustomFields(await deleteTemplateCustomFields(deps, request.params.accountId, request.params.templateId, parseCustomFieldPatches(customFieldsBody(request.body)))));

  const notification = `${BASE}/:templateId/notification`;
  app.get<{ Params: TemplateParams }>(notification, async (request) => toWireNotification((await getTemplate(deps, request.params.accountId, request.params.templateId)).notification ?? API_DEFAULT_SETTINGS));
  app.put<{ Params: TemplateParams }>(notification, async (request) => {
    const body = request.body ?? {};
    // TemplateNotificationRequest's password: document passwords are not supported.
    if (typeof body === 'object' && body !== null && 'password' in body && (body as { password?: unknown }).password) throw new EsignError('INVALID_REQUEST_BODY', 'templateNotificationRequest.password: document passwords are not supported.');
    const settings = await updateTemplateNotification(deps, request.params.accountId, request.params.templateId, parseNotificationRequest(body, 'templateNotificationRequest'));
    return toWireNotification(settings);
  });
}
