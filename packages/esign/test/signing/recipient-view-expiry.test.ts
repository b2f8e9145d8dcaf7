import assert from 'node:assert/strict';
import { test } from 'node:test';
import { request } from 'undici';
import { RECIPIENT_VIEW_RETENTION_MS } from '../../src/signing/recipient-view-redeem.ts';
import { SigningRepository } from '../../src/store/signing-repository.ts';
import { onePagePdf, startReminderEsign } from '../reminders/reminders-harness.ts';
import { startSmtpListener } from '../support/smtp-listener.ts';

const HOUR_S = 3_600;

test('a used or expired recipient view redirects with ttl_expired only within an hour of its expiry, then answers an expired page; old rows are purged', async (t) => {
  const smtp = await startSmtpListener(t);
  const { h, clock, call } = await startReminderEsign(t, smtp.url, { reminderPollMs: 3_600_000 });
  const created = await call('POST', '', {
    emailSubject: 'Kiosk', status: 'sent',
    documents: [{ documentId: '1', name: 'A.pdf', documentBase64: await onePagePdf() }],
    recipients: { signers: [{ email: 'kiosk@example.com', name: 'Kiosk', recipientId: '1', clientUserId: 'k-1' }] },
  });
  assert.equal(created.status, 201, created.text);
  const envelopeId = String(created.json().envelopeId);
  const view = async () => {
    const res = await call('POST', `/${envelopeId}/views/recipient`, { returnUrl: 'https://app.example/done', authenticationMethod: 'none', email: 'kiosk@example.com', userName: 'Kiosk', clientUserId: 'k-1' });
    assert.equal(res.status, 201, res.text);
    return new URL(String(res.json().url)).pathname;
  };
  const visit = async (path: string) => {
    const res = await request(`${h.origin}${path}`);
    return { status: res.statusCode, location: res.headers.location, text: await res.body.text() };
  };

  const used = await view();
  assert.equal((await visit(used)).status, 303, 'redeemed once');
  const unused = await view();

  // Within the grace: back to the integrator with ttl_expired, used and expired alike.
  clock.advance(HOUR_S);
  assert.deepEqual([(await visit(used)).location, (await visit(unused)).location], ['https://app.example/done?event=ttl_expired', 'https://app.example/done?event=ttl_expired']);

  // An hour after expiry: no redirect any more, an expired page.
  clock.advance(6 * 60);
  for (const path of [used, unused]) {
    const late = await visit(path);
    assert.equal(late.status, 410);
    assert.equal(late.location, undefined);
    assert.match(late.text, /This link has expired/);
    assert.doesNotMatch(late.text, /app\.example/);
  }

  // The sweep deletes rows past the retention; their URLs are then simply unknown.
  const signing = new SigningRepository(h.store.db);
  // The signing session (an hour) has expired; the dead views are kept within the retention.
  assert.deepEqual(await signing.purgeExpired(clock.now(), RECIPIENT_VIEW_RETENTION_MS), { recipientViews: 0, signingSessions: 1 });
  const purged = await signing.purgeExpired(new Date(clock.now().getTime() + RECIPIENT_VIEW_RETENTION_MS), RECIPIENT_VIEW_RETENTION_MS);
  assert.deepEqual(purged, { recipientViews: 2, signingSessions: 0 });
  assert.equal((await visit(used)).status, 404);
});
