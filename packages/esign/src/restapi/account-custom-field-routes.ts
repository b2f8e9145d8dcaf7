import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createAccountCustomField, deleteAccountCustomField, updateAccountCustomField, type AccountCustomFieldDeps } from '../domain/account/account-custom-fields.ts';
import { EsignError } from '../errors.ts';
import { parseAccountCustomFieldPatch, parseNewAccountCustomField } from '../wire/parse-account-custom-field.ts';
import { toWireCustomFields } from '../wire/to-wire-custom-fields.ts';

type AccountParams = { accountId: string };
type FieldParams = AccountParams & { customFieldId: string };
type Query = { apply_to_templates?: string };

const PATH = '/restapi/v2.1/accounts/:accountId/custom_fields';

function userOf(request: FastifyRequest): string {
  if (!request.principal) throw new EsignError('AUTHORIZATION_INVALID_TOKEN');
  return request.principal.userId;
}

// apply_to_templates asks DocuSign to change the account's templates too; templates here keep
// their own custom fields (docs/esign-templates.md), so it is refused by name rather than ignored.
function refuseApplyToTemplates(query: Query): void {
  if (String(query.apply_to_templates ?? '').toLowerCase() === 'true') throw new EsignError('INVALID_REQUEST_PARAMETER', 'apply_to_templates=true: changing the templates\' custom fields with the account\'s is not supported; templates keep their own (TemplatesApi custom fields).');
}

/**
 * AccountsApi.listCustomFields, createCustomField, updateCustomField, deleteCustomField on the
 * SDK's paths (docs/esign-envelopes.md, "Account custom fields"). Any member lists them; changes
 * need the account's administrator. Each answer but the delete's is the account's CustomFields.
 */
export function registerAccountCustomFieldRoutes(app: FastifyInstance, deps: AccountCustomFieldDeps): void {
  app.get<{ Params: AccountParams }>(PATH, async (request) => toWireCustomFields(await deps.fields.list(request.params.accountId)));
  app.post<{ Params: AccountParams; Querystring: Query }>(PATH, async (request, reply) => {
    refuseApplyToTemplates(request.query);
    const fields = await createAccountCustomField(deps, { userId: userOf(request), accountId: request.params.accountId, field: parseNewAccountCustomField(request.body) });
    return reply.code(201).send(toWireCustomFields(fields));
  });
  app.put<{ Params: FieldParams; Querystring: Query }>(`${PATH}/:customFieldId`, async (request) => {
    refuseApplyToTemplates(request.query);
    const { kind, ...patch } = parseAccountCustomFieldPatch(request.body);
    const fields = await deps.fields.list(request.params.accountId);
    const current = fields.find((f) => f.fieldId === request.params.customFieldId);
    if (current && kind !== undefined && kind !== current.kind) throw new EsignError('INVALID_REQUEST_BODY', `customFieldType: a ${current.kind} field cannot become a ${kind} field; delete it and create another.`);
    return toWireCustomFields(await updateAccountCustomField(deps, { userId: userOf(request), accountId: request.params.accountId, fieldId: request.params.customFieldId, patch }));
  });
  app.delete<{ Params: FieldParams; Querystring: Query }>(`${PATH}/:customFieldId`, async (request, reply) => {
    refuseApplyToTemplates(request.query);
    await deleteAccountCustomField(deps, { userId: userOf(request), accountId: request.params.accountId, fieldId: request.params.customFieldId });
    return reply.code(200).send();
  });
}
