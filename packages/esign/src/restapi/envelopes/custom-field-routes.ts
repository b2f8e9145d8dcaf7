import type { FastifyInstance } from 'fastify';
import { addCustomFields, deleteCustomFields, updateCustomFields } from '../../domain/envelope/change-custom-fields.ts';
import { getEnvelope } from '../../domain/envelope/get-envelope.ts';
import type { EnvelopeDeps } from '../../domain/envelope/ports.ts';
import { EsignError } from '../../errors.ts';
import { parseCustomFieldPatches, parseCustomFields } from '../../wire/parse-custom-fields.ts';
import { toWireCustomFields } from '../../wire/to-wire-custom-fields.ts';
import { WireReader } from '../../wire/wire-reader.ts';

type EnvelopeParams = { accountId: string; envelopeId: string };
const PATH = '/restapi/v2.1/accounts/:accountId/envelopes/:envelopeId/custom_fields';

/** A CustomFields body that lists at least one field (envelope and template custom field calls). */
export function customFieldsBody(body: unknown): WireReader {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new EsignError('INVALID_REQUEST_BODY', 'The body must be a JSON CustomFields object.');
  const r = new WireReader('', body);
  if (r.field('textCustomFields').items().length + r.field('listCustomFields').items().length === 0) throw new EsignError('INVALID_REQUEST_BODY', 'textCustomFields or listCustomFields must list at least one field.');
  return r;
}

/**
 * Envelope custom fields (EnvelopesApi listCustomFields, createCustomFields,
 * updateCustomFields, deleteCustomFields; domain/envelope/change-custom-fields.ts). Each answer
 * is a CustomFields object: the envelope's fields for the list, the fields touched otherwise.
 * Another account's envelope id is ENVELOPE_DOES_NOT_EXIST.
 */
export function registerCustomFieldRoutes(app: FastifyInstance, deps: { envelopes: EnvelopeDeps }): void {
  const d = deps.envelopes;
  app.get<{ Params: EnvelopeParams }>(PATH, async (request) => toWireCustomFields((await getEnvelope(d, request.params.accountId, request.params.envelopeId)).customFields ?? []));
  app.post<{ Params: EnvelopeParams }>(PATH, async (request, reply) => {
    const drafts = parseCustomFields(customFieldsBody(request.body));
    return reply.code(201).send(toWireCustomFields(await addCustomFields(d, request.params.accountId, request.params.envelopeId, drafts)));
  });
  app.put<{ Params: EnvelopeParams }>(PATH, async (request) => toWireCustomFields(await updateCustomFields(d, request.params.accountId, request.params.envelopeId, parseCustomFieldPatches(customFieldsBody(request.body)))));
  app.delete<{ Params: EnvelopeParams }>(PATH, async (request) => toWireCustomFields(await deleteCustomFields(d, request.params.accountId, request.params.envelopeId, parseCustomFieldPatches(customFieldsBody(request.body)))));
}
