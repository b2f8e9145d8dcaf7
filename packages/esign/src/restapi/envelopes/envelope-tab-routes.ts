import type { FastifyInstance } from 'fastify';
import { addEnvelopeTabs, deleteEnvelopeTabs, editableSigner, updateEnvelopeTabs } from '../../domain/envelope/edit-envelope-tabs.ts';
import type { Envelope, Recipient } from '../../domain/envelope/envelope.ts';
import { getEnvelope } from '../../domain/envelope/get-envelope.ts';
import type { EnvelopeDeps } from '../../domain/envelope/ports.ts';
import { EsignError } from '../../errors.ts';
import { parseNewTabs, parseTabIds, parseTabPatches } from '../../wire/parse-tab-edits.ts';
import { toWireFormData } from '../../wire/to-wire-form-data.ts';
import { toWireTabs } from '../../wire/to-wire-tabs.ts';

type EnvelopeParams = { accountId: string; envelopeId: string };
type RecipientParams = EnvelopeParams & { recipientId: string };

const BASE = '/restapi/v2.1/accounts/:accountId/envelopes';

function recipientOf(envelope: Envelope, recipientId: string): Recipient {
  const recipient = envelope.recipients.find((r) => r.recipientId === recipientId);
  if (!recipient) throw new EsignError('UNKNOWN_ENVELOPE_RECIPIENT', `recipientId "${recipientId}"`);
  return recipient;
}

/**
 * A recipient's tabs (EnvelopesApi listTabs, createTabs, updateTabs, deleteTabs) and the
 * envelope's form data (getFormData). Tabs and values change until the recipient signs.
 */
export function registerEnvelopeTabRoutes(app: FastifyInstance, d: EnvelopeDeps): void {
  app.get<{ Params: RecipientParams }>(`${BASE}/:envelopeId/recipients/:recipientId/tabs`, async (request) => {
    const envelope = await getEnvelope(d, request.params.accountId, request.params.envelopeId);
    const recipient = recipientOf(envelope, request.params.recipientId);
    return toWireTabs(recipient.tabs, recipient);
  });

  // createTabs answers the tabs it made (DocuSign's 201 Tabs).
  app.post<{ Params: RecipientParams }>(`${BASE}/:envelopeId/recipients/:recipientId/tabs`, async (request, reply) => {
    const { accountId, envelopeId, recipientId } = request.params;
    const tabs = parseNewTabs(request.body, recipientId);
    const placed = await addEnvelopeTabs(d, accountId, envelopeId, recipientId, tabs);
    const recipient = recipientOf(await getEnvelope(d, accountId, envelopeId), recipientId);
    return reply.code(201).send(toWireTabs(placed, recipient));
  });

  // updateTabs answers the recipient's tabs as they now are.
  app.put<{ Params: RecipientParams }>(`${BASE}/:envelopeId/recipients/:recipientId/tabs`, async (request) => {
    const { accountId, envelopeId, recipientId } = request.params;
    const before = await getEnvelope(d, accountId, envelopeId);
    const recipient = editableSigner(before, recipientId);
    const patches = parseTabPatches(request.body, recipient.tabs, recipient);
    const after = await updateEnvelopeTabs(d, accountId, envelopeId, recipientId, patches);
    const updated = recipientOf(after, recipientId);
    const ids = new Set(patches.map((p) => p.tabId));
    return toWireTabs(updated.tabs.filter((t) => ids.has(t.tabId)), updated);
  });

  app.delete<{ Params: RecipientParams }>(`${BASE}/:envelopeId/recipients/:recipientId/tabs`, async (request) => {
    const { accountId, envelopeId, recipientId } = request.params;
    const before = recipientOf(await getEnvelope(d, accountId, envelopeId), recipientId);
    const tabIds = parseTabIds(request.body, before.tabs, recipientId);
    const deleted = before.tabs.filter((t) => tabIds.includes(t.tabId));
    await deleteEnvelopeTabs(d, accountId, envelopeId, recipientId, tabIds);
    return toWireTabs(deleted, before);
  });

  // getFormData: every recipient's values (EnvelopeFormData).
  app.get<{ Params: EnvelopeParams }>(`${BASE}/:envelopeId/form_data`, async (request) => {
    const envelope = await getEnvelope(d, request.params.accountId, request.params.envelopeId);
    return toWireFormData(envelope);
  });
}
