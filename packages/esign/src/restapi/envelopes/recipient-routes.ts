import type { FastifyInstance } from 'fastify';
import { correctRecipients } from '../../domain/envelope/correct-recipients.ts';
import { deleteRecipients } from '../../domain/envelope/delete-recipients.ts';
import type { Recipient } from '../../domain/envelope/envelope.ts';
import type { EnvelopeDeps } from '../../domain/envelope/ports.ts';
import { EsignError } from '../../errors.ts';
import { parseRecipientCorrections, parseRecipientRemovals } from './parse-recipient-corrections.ts';
import { addRecipients } from '../../domain/envelope/add-recipients.ts';
import { parseRecipientLists } from './parse-envelope-definition.ts';
import { WireReader } from '../../wire/wire-reader.ts';
import { toWireRecipients } from '../../wire/to-wire-envelope.ts';
import { getEnvelope } from '../../domain/envelope/get-envelope.ts';
import { managesRecipients } from '../../domain/envelope/recipient-kinds.ts';

type EnvelopeParams = { accountId: string; envelopeId: string };
type Query = Record<string, string | string[] | undefined>;

const BASE = '/restapi/v2.1/accounts/:accountId/envelopes/:envelopeId/recipients';

/** A query flag as the SDK sends it ("true"/"false"; docusign-esign src/api/EnvelopesApi.js). */
function flag(query: Query, name: string): boolean {
  const v = query[name];
  return (Array.isArray(v) ? v[0] : v)?.trim().toLowerCase() === 'true';
}

/** What deleteRecipient(s) answer: the deleted recipients, each in its type's list (the SDK's Recipients model). */
function toWireDeleted(deleted: readonly Recipient[]): Record<string, { recipientId: string; recipientIdGuid: string }[]> {
  const of = (type: Recipient['type']) => deleted.filter((r) => r.type === type).map((r) => ({ recipientId: r.recipientId, recipientIdGuid: r.recipientIdGuid }));
  return { signers: of('signer'), carbonCopies: of('carbonCopy'), certifiedDeliveries: of('certifiedDelivery'), inPersonSigners: of('inPersonSigner'), agents: of('agent'), editors: of('editor'), intermediaries: of('intermediary'), witnesses: of('witness') };
}

/**
 * A recipient corrected, resent to or deleted before they act (EnvelopesApi.updateRecipients,
 * deleteRecipient, deleteRecipients; domain/envelope/correct-recipients.ts and
 * delete-recipients.ts). Scoped to the caller's account like every envelope call: another
 * account's envelope id is ENVELOPE_DOES_NOT_EXIST, and nothing of it is read or changed.
 */
export function registerRecipientRoutes(app: FastifyInstance, d: EnvelopeDeps): void {
  // EnvelopesApi.createRecipient: recipients added to a draft or an envelope in process
  // (domain/envelope/add-recipients.ts); the answer lists them, each in its type's list.
  app.post<{ Params: EnvelopeParams; Querystring: Query }>(BASE, async (request, reply) => {
    if (typeof request.body !== 'object' || request.body === null || Array.isArray(request.body)) throw new EsignError('INVALID_REQUEST_BODY', 'The body must be a JSON Recipients object.');
    const reader = new WireReader('', request.body);
    // Agents, editors and intermediaries may be added too (domain/signing/manage-recipients.ts):
    // a recipient added after one still to finish, in the envelope or in this request, may come
    // without a name or e-mail for them to give (add-recipients.ts checks it again in the change).
    const envelope = await getEnvelope(d, request.params.accountId, request.params.envelopeId);
    const managerBefore = Math.min(...envelope.recipients.filter((r) => managesRecipients(r) && r.status !== 'completed').map((r) => r.routingOrder), Infinity);
    const drafts = parseRecipientLists(reader, new Set(), managerBefore);
    const added = await addRecipients(d, request.params.accountId, request.params.envelopeId, drafts, { resend: flag(request.query, 'resend_envelope') });
    const { recipientCount: _count, currentRoutingOrder: _current, ...lists } = toWireRecipients({ recipients: added }, true);
    return reply.code(201).send(lists);
  });

  app.put<{ Params: EnvelopeParams; Querystring: Query }>(BASE, async (request) => {
    // Options that would change how the envelope routes or is signed, refused rather than ignored.
    for (const name of ['combine_same_order_recipients', 'offline_signing']) {
      if (flag(request.query, name)) throw new EsignError('INVALID_REQUEST_PARAMETER', `${name}=true is not supported.`);
    }
    const corrections = parseRecipientCorrections(request.body);
    const results = await correctRecipients(d, request.params.accountId, request.params.envelopeId, corrections, { resend: flag(request.query, 'resend_envelope') });
    return { recipientUpdateResults: results };
  });

  app.delete<{ Params: EnvelopeParams }>(BASE, async (request) => {
    const deleted = await deleteRecipients(d, request.params.accountId, request.params.envelopeId, parseRecipientRemovals(request.body));
    return toWireDeleted(deleted);
  });

  app.delete<{ Params: EnvelopeParams & { recipientId: string } }>(`${BASE}/:recipientId`, async (request) => {
    const deleted = await deleteRecipients(d, request.params.accountId, request.params.envelopeId, [{ recipientId: request.params.recipientId }]);
    return toWireDeleted(deleted);
  });
}
