import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { pollUntil } from '@signet/kit';
import { buildConverter, type Converter } from '@signet/pdf';
import { b64, samplePdf } from '../support/sample-pdf.ts';
import { startConnectEsign, type ConnectHarness } from './connect-harness.ts';

// The official SDK, unmodified (CommonJS, no typings): only the calls used here are typed.
type SdkError = { response?: { status: number; data: { errorCode: string; message: string } } };
type Configuration = { connectId: string; name: string; urlToPublishTo: string; allowEnvelopePublish: string; events: string[]; envelopeEvents: string[]; includeHMAC: string };
type ConnectApi = {
  createConfiguration(accountId: string, opts: { connectCustomConfiguration: unknown }): Promise<Configuration>;
  updateConfiguration(accountId: string, opts: { connectCustomConfiguration: unknown }): Promise<Configuration>;
  listConfigurations(accountId: string): Promise<{ configurations: Configuration[]; totalRecords: string }>;
  getConfiguration(accountId: string, connectId: string): Promise<{ configurations: Configuration[] }>;
  deleteConfiguration(accountId: string, connectId: string): Promise<unknown>;
  listEventFailureLogs(accountId: string, opts?: Record<string, string>): Promise<{ failures?: { failureId: string; envelopeId: string; connectId: string; status: string; retryCount: string; error: string; configUrl: string }[]; totalRecords: string }>;
  deleteEventFailureLog(accountId: string, failureId: string): Promise<unknown>;
  retryEventForEnvelope(accountId: string, envelopeId: string): Promise<{ retryQueue: { envelopeId: string; configId: string; status: string }[] }>;
  retryEventForEnvelopes(accountId: string, opts: { connectFailureFilter: unknown }): Promise<{ retryQueue: { envelopeId: string; status: string }[] }>;
};
type EnvelopesApi = { createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string; status: string }> };
type Model = { constructFromObject(data: unknown): unknown };
type Sdk = {
  ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void };
  ConnectApi: new (client: unknown) => ConnectApi;
  EnvelopesApi: new (client: unknown) => EnvelopesApi;
  EventNotification: Model;
  ConnectCustomConfiguration: Model;
};
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

let converter: Converter;
before(async () => {
  converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
});
after(() => converter.close());

function sdk(h: ConnectHarness) {
  const client = new docusign.ApiClient();
  client.setBasePath(`${h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${h.token}`);
  return { connect: new docusign.ConnectApi(client), envelopes: new docusign.EnvelopesApi(client) };
}

async function refused(call: Promise<unknown>): Promise<{ status: number; errorCode: string; message: string }> {
  const err = await call.then(() => assert.fail('expected a refusal'), (e: unknown) => e as SdkError);
  assert.ok(err.response, 'an HTTP answer, not a network error');
  return { status: err.response.status, ...err.response.data };
}

// The listener's name: resolved by the test's DNS to a public address at configuration time
// (not a documentation range: those are refused like private ones). Deliveries resolve it
// through real DNS, which does not know it (.test, RFC 2606), so each one fails before any
// connection is made and is logged.
const LISTENER = 'http://hooks.example.test';

test('docusign-esign ConnectApi: configurations CRUD, SSRF refusals in DocuSign shape, an envelope with eventNotification, failure log, republish', async (t) => {
  const h = await startConnectEsign(t, {
    converter,
    // https is not required here (plain-http listener), but private addresses stay refused.
    settings: { CONNECT_ALLOW_HTTP: '1' },
    connect: { resolveHost: (host) => (host === 'hooks.example.test' ? Promise.resolve(['93.184.216.34']) : Promise.reject(new Error('ENOTFOUND'))), worker: { pollIntervalMs: 20, timeoutMs: 1_000, retry: { baseMs: 10, maxMs: 10, maxAttempts: 1 } } },
  });
  const { connect, envelopes } = sdk(h);

  const created = await connect.createConfiguration(h.accountId, { connectCustomConfiguration: docusign.ConnectCustomConfiguration.constructFromObject({
    configurationType: 'custom', name: 'Orders', urlToPublishTo: `${LISTENER}/account`, allUsers: 'true', allowEnvelopePublish: 'true',
    envelopeEvents: ['Sent', 'Completed'], includeHMAC: 'true', requiresAcknowledgement: 'true', eventData: { version: 'restv2.1', format: 'json', includeData: ['recipients'] },
  }) });
  assert.match(created.connectId, /^\d+$/);
  assert.deepEqual([created.name, created.urlToPublishTo, created.allowEnvelopePublish, created.includeHMAC], ['Orders', `${LISTENER}/account`, 'true', 'true']);
  assert.deepEqual(created.events, ['envelope-sent', 'envelope-completed']);
  assert.deepEqual(created.envelopeEvents, ['Sent', 'Completed']);
  const listed = await connect.listConfigurations(h.accountId);
  assert.equal(listed.totalRecords, '1');
  assert.equal(listed.configurations[0]?.connectId, created.connectId);
  assert.equal((await connect.getConfiguration(h.accountId, created.connectId)).configurations[0]?.name, 'Orders');

  // SSRF at configuration time: loopback, link-local (cloud metadata), a name resolving nowhere.
  for (const url of ['http://127.0.0.1:8080/hook', 'http://169.254.169.254/latest', 'http://[::ffff:10.0.0.1]/x', 'http://nowhere.example.test/x']) {
    const answer = await refused(connect.createConfiguration(h.accountId, { connectCustomConfiguration: { urlToPublishTo: url, events: ['envelope-sent'] } }));
    assert.equal(answer.status, 400, url);
    assert.equal(answer.errorCode, 'INVALID_REQUEST_BODY', url);
    assert.match(answer.message, /urlToPublishTo: The listener (address|host)/, url);
  }
  const unknown = await refused(connect.getConfiguration(h.accountId, '999'));
  assert.deepEqual([unknown.status, unknown.errorCode], [404, 'RESOURCE_NOT_FOUND']);

  // An envelope with its own eventNotification (the SDK's EventNotification model, legacy envelopeEvents).
  const definition = {
    emailSubject: 'Connect through the SDK',
    documents: [{ documentBase64: b64(await samplePdf(1)), documentId: '1', fileExtension: 'pdf', name: 'Order' }],
    recipients: { signers: [{ email: 'sam@example.com', name: 'Sam Signer', recipientId: '1', routingOrder: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '500' }] } }] },
    status: 'sent',
  };
  const eventNotification = docusign.EventNotification.constructFromObject({ url: `${LISTENER}/envelope`, loggingEnabled: 'true', requireAcknowledgment: 'true', envelopeEvents: [{ envelopeEventStatusCode: 'sent' }, { envelopeEventStatusCode: 'completed' }] });
  const badHook = await refused(envelopes.createEnvelope(h.accountId, { envelopeDefinition: { ...definition, eventNotification: { url: 'http://10.1.2.3/hook', events: ['envelope-sent'] } } }));
  assert.deepEqual([badHook.status, badHook.errorCode], [400, 'INVALID_REQUEST_BODY']);
  assert.match(badHook.message, /eventNotification\.url: The listener address 10\.1\.2\.3/);
  const { envelopeId, status } = await envelopes.createEnvelope(h.accountId, { envelopeDefinition: { ...definition, eventNotification } });
  assert.equal(status, 'sent');

  // Both subscriptions' envelope-sent deliveries fail (the name does not resolve for real) and are logged.
  const log = await pollUntil(async () => {
    const logs = await connect.listEventFailureLogs(h.accountId);
    return (logs.failures ?? []).filter((f) => f.status === 'failed').length === 2 ? logs : undefined;
  }, { timeoutMs: 15_000, intervalMs: 50, what: 'two failed deliveries in the failure log' });
  assert.equal(log.totalRecords, '2');
  assert.deepEqual(log.failures?.map((f) => [f.envelopeId, f.connectId, f.configUrl, f.retryCount]).sort(), [[envelopeId, '0', `${LISTENER}/envelope`, '1'], [envelopeId, created.connectId, `${LISTENER}/account`, '1']].sort());
  assert.equal((await connect.listEventFailureLogs(h.accountId, { fromDate: '2999-01-01T00:00:00Z' })).totalRecords, '0');

  // Delete one entry, republish the other.
  const envelopeLevel = log.failures?.find((f) => f.connectId === '0');
  assert.ok(envelopeLevel);
  await connect.deleteEventFailureLog(h.accountId, envelopeLevel.failureId);
  const again = await refused(connect.deleteEventFailureLog(h.accountId, envelopeLevel.failureId));
  assert.deepEqual([again.status, again.errorCode], [404, 'RESOURCE_NOT_FOUND']);
  const retried = await connect.retryEventForEnvelope(h.accountId, envelopeId);
  assert.deepEqual(retried.retryQueue.map((r) => [r.envelopeId, r.configId, r.status]), [[envelopeId, created.connectId, 'Queued']]);
  const none = await connect.retryEventForEnvelopes(h.accountId, { connectFailureFilter: { envelopeIds: ['no-such-envelope'] } });
  assert.deepEqual(none.retryQueue.map((r) => [r.envelopeId, r.status]), [['no-such-envelope', 'NotFound']]);

  // Pause, then delete the configuration.
  const paused = await connect.updateConfiguration(h.accountId, { connectCustomConfiguration: { connectId: created.connectId, urlToPublishTo: `${LISTENER}/account`, envelopeEvents: ['Completed'], allowEnvelopePublish: 'false', name: 'Orders' } });
  assert.deepEqual([paused.allowEnvelopePublish, paused.events], ['false', ['envelope-completed']]);
  await connect.deleteConfiguration(h.accountId, created.connectId);
  assert.equal((await connect.listConfigurations(h.accountId)).totalRecords, '0');
});
