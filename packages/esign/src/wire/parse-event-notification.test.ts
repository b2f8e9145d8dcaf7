import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EsignError } from '../errors.ts';
import { WireReader } from './wire-reader.ts';
import { parseConnectConfiguration } from '../connect/parse-connect-configuration.ts';
import { parseEventNotification } from './parse-event-notification.ts';

const read = (value: unknown) => parseEventNotification(new WireReader('eventNotification', value));
const bad = (fn: () => unknown, pattern: RegExp) => assert.throws(fn, (err: unknown) => err instanceof EsignError && err.code === 'INVALID_REQUEST_BODY' && pattern.test(err.message));

test('eventNotification: SIM events, legacy codes mapped, flags read leniently (strings or booleans)', () => {
  assert.equal(read(undefined), undefined);
  assert.deepEqual(read({
    url: 'https://hooks.example.com/ds', includeHMAC: 'true', includeDocuments: false, requireAcknowledgment: true,
    events: ['envelope-sent', 'Envelope-Completed'],
    envelopeEvents: [{ envelopeEventStatusCode: 'Voided' }],
    recipientEvents: [{ recipientEventStatusCode: 'Completed' }, { recipientEventStatusCode: 'AuthenticationFailed' }],
    eventData: { version: 'restv2.1', format: 'json', includeData: ['recipients', 'Tabs'] },
  }), {
    url: 'https://hooks.example.com/ds',
    events: ['envelope-sent', 'envelope-completed', 'envelope-voided', 'recipient-completed', 'recipient-authenticationfailed'],
    includeHMAC: true, includeDocuments: false, includeData: ['recipients', 'tabs'], requireAcknowledgment: true,
  });
});

test('eventNotification: every event name DocuSign publishes is accepted (as DocuSign\'s own samples list them), those never published here included', () => {
  // The list DocuSign integrations commonly send: refusing any of it would fail their createEnvelope.
  const docusignList = [
    'envelope-sent', 'envelope-delivered', 'envelope-completed', 'envelope-declined', 'envelope-voided', 'envelope-resent', 'envelope-corrected', 'envelope-purge', 'envelope-deleted', 'envelope-discard',
    'recipient-sent', 'recipient-autoresponded', 'recipient-delivered', 'recipient-completed', 'recipient-declined', 'recipient-authenticationfailed', 'recipient-resent', 'recipient-delegate', 'recipient-reassign', 'recipient-finish-later',
  ];
  assert.deepEqual(read({ url: 'https://hooks.example.com/ds', events: docusignList })?.events, docusignList);
  assert.deepEqual(parseConnectConfiguration({ urlToPublishTo: 'https://hooks.example.com/ds', events: ['envelope-created', 'template-created', 'click-agreed', 'Recipient-Finish-Later'] }).events, ['envelope-created', 'template-created', 'click-agreed', 'recipient-finish-later']);
  // A name DocuSign does not publish stays a 400: it is a typo, and the listener would wait for it forever.
  bad(() => read({ url: 'https://h.example/', events: ['envelope-signed'] }), /"envelope-signed" is not a DocuSign Connect event/);
});

test('eventNotification: bad input is a 400 naming the field', () => {
  bad(() => read({ events: ['envelope-sent'] }), /eventNotification\.url is required/);
  bad(() => read({ url: '/relative', events: ['envelope-sent'] }), /eventNotification\.url must be an absolute URL/);
  bad(() => read({ url: 'https://h.example/' }), /eventNotification names no events/);
  bad(() => read({ url: 'https://h.example/', events: ['envelope-exploded'] }), /eventNotification\.events\[0\] "envelope-exploded" is not a DocuSign Connect event/);
  bad(() => read({ url: 'https://h.example/', envelopeEvents: [{ envelopeEventStatusCode: 'Nope' }] }), /envelopeEvents\[0\] "Nope" is not a status code/);
  bad(() => read({ url: 'https://h.example/', events: ['envelope-sent'], eventData: { format: 'xml' } }), /eventData\.format must be "json"/);
  bad(() => read({ url: 'https://h.example/', events: ['envelope-sent'], useSoapInterface: 'true' }), /useSoapInterface must be false/);
  bad(() => read({ url: 'https://h.example/', events: ['envelope-sent'], includeHMAC: 'maybe' }), /includeHMAC must be true or false/);
  bad(() => read('https://h.example/'), /eventNotification must be an object/);
  // Aggregate messages (one per envelope status, the legacy shape) are not what this service sends.
  bad(() => read({ url: 'https://h.example/', events: ['envelope-sent'], deliveryMode: 'aggregate' }), /deliveryMode must be "SIM"/);
  assert.deepEqual(read({ url: 'https://h.example/', events: ['envelope-sent'], deliveryMode: 'sim' })?.events, ['envelope-sent']);
});

test('ConnectCustomConfiguration: legacy events are plain strings, requiresAcknowledgement is spelled its way, connectId is numeric', () => {
  assert.deepEqual(parseConnectConfiguration({
    urlToPublishTo: 'https://hooks.example.com/ds', name: 'Orders', allowEnvelopePublish: 'false', allUsers: 'true',
    envelopeEvents: ['Completed', 'Declined'], recipientEvents: ['Sent'], includeHMAC: 'true', requiresAcknowledgement: 'true', configurationType: 'custom', connectId: '1234567',
  }), {
    url: 'https://hooks.example.com/ds', events: ['envelope-completed', 'envelope-declined', 'recipient-sent'], includeHMAC: true, includeDocuments: false, includeData: [], requireAcknowledgment: true,
    connectId: '1234567', name: 'Orders', enabled: false, allUsers: true, userIds: [],
  });
  // Without allUsers, a userIds list narrows the senders; the name defaults to the listener's host.
  const narrowed = parseConnectConfiguration({ urlToPublishTo: 'https://hooks.example.com:8443/x', events: ['envelope-sent'], userIds: ['u-1'] });
  assert.equal(narrowed.allUsers, false);
  assert.equal(narrowed.name, 'hooks.example.com:8443');
  bad(() => parseConnectConfiguration({ events: ['envelope-sent'] }), /urlToPublishTo is required/);
  bad(() => parseConnectConfiguration({ urlToPublishTo: 'https://h.example/', events: ['envelope-sent'], connectId: 'abc' }), /connectId must be a configuration's numeric id/);
  bad(() => parseConnectConfiguration({ urlToPublishTo: 'https://h.example/', events: ['envelope-sent'], configurationType: 'salesforce' }), /configurationType must be "custom"/);
  bad(() => parseConnectConfiguration([]), /ConnectCustomConfiguration object/);
});
