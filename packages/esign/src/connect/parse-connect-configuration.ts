import { EsignError } from '../errors.ts';
import { WireReader } from '../wire/wire-reader.ts';
import { MAX_LISTENER_URL, readSubscription } from '../wire/parse-event-notification.ts';
import type { ConnectConfigurationDraft } from '../domain/connect/event-subscription.ts';

/**
 * Reads a ConnectCustomConfiguration body (docusign-esign ConnectCustomConfiguration) for
 * create (POST /connect) and update (PUT /connect, which names the configuration by its
 * `connectId`). `urlToPublishTo` is checked for shape only; the route applies the SSRF rules.
 */
export function parseConnectConfiguration(body: unknown): ConnectConfigurationDraft & { connectId?: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new EsignError('INVALID_REQUEST_BODY', 'The body must be a JSON ConnectCustomConfiguration object.');
  const r = new WireReader('', body);
  const url = r.field('urlToPublishTo').string(MAX_LISTENER_URL);
  if (!URL.canParse(url)) r.field('urlToPublishTo').fail(`must be an absolute URL, got "${url}".`);
  const configurationType = r.field('configurationType').optionalString(32)?.toLowerCase();
  if (configurationType !== undefined && configurationType !== 'custom') r.field('configurationType').fail('must be "custom" (Salesforce and eOriginal configurations are not supported).');
  const connectId = r.field('connectId').optionalString(20);
  if (connectId !== undefined && !/^\d+$/.test(connectId)) r.field('connectId').fail(`must be a configuration's numeric id, got "${connectId}".`);
  const subscription = readSubscription(r, url, 'requiresAcknowledgement');
  const userIds = r.field('userIds').items().map((item) => item.string(100));
  const allUsers = r.field('allUsers').boolean(userIds.length === 0);
  return {
    ...subscription,
    ...(connectId !== undefined ? { connectId } : {}),
    name: r.field('name').optionalString(100) ?? new URL(url).host,
    enabled: r.field('allowEnvelopePublish').boolean(true),
    allUsers,
    userIds,
  };
}
