import assert from 'node:assert/strict';
import { test } from 'node:test';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { seedUserAndApp, startEsign } from '../support/esign-harness.ts';

test('ConnectApi routes over HTTP: Bearer and account checks, exact bodies, DocuSign-style 400/404 for bad input', async (t) => {
  // The safe defaults: https only, no private addresses. Literal addresses need no DNS lookup.
  const h = await startEsign(t);
  const seed = await seedUserAndApp(h);
  const other = await seedUserAndApp(h);
  const code = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  const { access_token: token } = (await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret })).json() as { access_token: string };
  const call = async (method: string, path: string, body?: unknown, account = seed.accountId, auth = `Bearer ${token}`) => {
    const res = await fetch(`${h.origin}/restapi/v2.1/accounts/${account}/connect${path}`, {
      method, headers: { authorization: auth, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  assert.deepEqual(await call('GET', '', undefined, seed.accountId, ''), { status: 401, body: { errorCode: 'USER_AUTHENTICATION_FAILED', message: 'One or both of Username and Password are invalid. Invalid access token.' } });
  assert.equal((await call('GET', '', undefined, other.accountId)).body.errorCode, 'USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT');
  assert.deepEqual(await call('GET', ''), { status: 200, body: { configurations: [], totalRecords: '0' } });

  const created = await call('POST', '', { urlToPublishTo: 'https://93.184.216.34/hook', name: 'Public', events: ['envelope-completed', 'recipient-declined'], includeHMAC: true });
  assert.equal(created.status, 201);
  const connectId = String(created.body.connectId);
  assert.match(connectId, /^\d{7,8}$/);
  const wire = {
    connectId, configurationType: 'custom', name: 'Public', urlToPublishTo: 'https://93.184.216.34/hook', allowEnvelopePublish: 'true', allUsers: 'true', userIds: [], deliveryMode: 'SIM',
    events: ['envelope-completed', 'recipient-declined'], envelopeEvents: ['Completed'], recipientEvents: ['Declined'],
    eventData: { format: 'json', version: 'restv2.1', includeData: [] }, includeHMAC: 'true', includeDocuments: 'false', requiresAcknowledgement: 'false',
  };
  assert.deepEqual(created.body, wire);
  assert.deepEqual(await call('GET', `/${connectId}`), { status: 200, body: { configurations: [wire], totalRecords: '1' } });
  assert.deepEqual(await call('GET', `/${connectId}`, undefined, other.accountId), { status: 400, body: { errorCode: 'USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT', message: 'The specified User is not a member of the specified Account.' } });

  const bad = async (method: string, path: string, body: unknown, pattern: RegExp, status = 400, errorCode = 'INVALID_REQUEST_BODY') => {
    const answer = await call(method, path, body);
    assert.equal(answer.status, status, JSON.stringify(answer.body));
    assert.equal(answer.body.errorCode, errorCode);
    assert.match(String(answer.body.message), pattern);
  };
  await bad('POST', '', { urlToPublishTo: 'http://93.184.216.34/hook', events: ['envelope-sent'] }, /urlToPublishTo: The listener URL must use https/);
  await bad('POST', '', { urlToPublishTo: 'https://[::1]/hook', events: ['envelope-sent'] }, /urlToPublishTo: The listener address ::1 is loopback/);
  await bad('POST', '', { urlToPublishTo: 'https://93.184.216.34/hook' }, /names no events/);
  await bad('POST', '', [], /ConnectCustomConfiguration object/);
  await bad('PUT', '', { urlToPublishTo: 'https://93.184.216.34/hook', events: ['envelope-sent'] }, /connectId is required/);
  await bad('PUT', '', { connectId: '1', urlToPublishTo: 'https://93.184.216.34/hook', events: ['envelope-sent'] }, /No Connect configuration 1/, 404, 'RESOURCE_NOT_FOUND');
  await bad('PUT', '/envelopes/retry_queue', [], /ConnectFailureFilter object/);
  await bad('PUT', '/envelopes/retry_queue', { envelopeIds: [] }, /envelopeIds must name at least one envelope/);
  await bad('GET', '/failures?from_date=yesterday', undefined, /from_date is not a date/, 400, 'INVALID_REQUEST_PARAMETER');
  await bad('DELETE', '/failures/nope', undefined, /No Connect failure nope/, 404, 'RESOURCE_NOT_FOUND');

  const updated = await call('PUT', '', { connectId, urlToPublishTo: 'https://93.184.216.34/v2', name: 'Public v2', events: ['envelope-voided'], allowEnvelopePublish: 'false' });
  assert.deepEqual([updated.status, updated.body.urlToPublishTo, updated.body.allowEnvelopePublish, updated.body.events], [200, 'https://93.184.216.34/v2', 'false', ['envelope-voided']]);
  assert.deepEqual(await call('GET', '/failures'), { status: 200, body: { type: 'failures', totalRecords: '0', failures: [] } });
  assert.deepEqual(await call('DELETE', `/${connectId}`), { status: 200, body: {} });
  assert.equal((await call('DELETE', `/${connectId}`)).status, 404);
  assert.deepEqual(await call('GET', ''), { status: 200, body: { configurations: [], totalRecords: '0' } });
});
