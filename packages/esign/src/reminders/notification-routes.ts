import type { FastifyInstance } from 'fastify';
import { getEnvelope } from '../domain/envelope/get-envelope.ts';
import type { EnvelopeDeps } from '../domain/envelope/ports.ts';
import { notificationOf } from '../domain/notification/envelope-notification.ts';
import { parseNotificationRequest } from '../wire/parse-notification.ts';
import { toWireNotification } from '../wire/to-wire-notification.ts';
import { updateNotificationSettings } from '../domain/notification/update-notification-settings.ts';

type EnvelopeParams = { accountId: string; envelopeId: string };

const PATH = '/restapi/v2.1/accounts/:accountId/envelopes/:envelopeId/notification';

/**
 * EnvelopesApi.getNotificationSettings / updateNotificationSettings (GET/PUT
 * …/envelopes/{envelopeId}/notification): both answer the Notification model, strings only.
 */
export function registerNotificationRoutes(app: FastifyInstance, deps: { envelopes: EnvelopeDeps }): void {
  app.get<{ Params: EnvelopeParams }>(PATH, async (request) => {
    const envelope = await getEnvelope(deps.envelopes, request.params.accountId, request.params.envelopeId);
    return toWireNotification(notificationOf(envelope).settings);
  });
  app.put<{ Params: EnvelopeParams }>(PATH, async (request) => {
    // The SDK sends {} when the request object is omitted: a no-op, as DocuSign's PUT {} is.
    const notificationRequest = parseNotificationRequest(request.body ?? {}, 'envelopeNotificationRequest');
    const envelope = await updateNotificationSettings(deps.envelopes, request.params.accountId, request.params.envelopeId, notificationRequest);
    return toWireNotification(notificationOf(envelope).settings);
  });
}
