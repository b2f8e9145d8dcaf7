import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EVIDENCE_RENEW_BEFORE_MS, nextEvidenceAttempt, nextRenewal } from './evidence-retry.ts';

const at = new Date('2030-01-01T00:00:00Z');
const minutesAfter = (d: Date) => (d.getTime() - at.getTime()) / 60_000;

test('an evidence upgrade backs off: 1, 4, 16, 64 minutes after the 1st to 4th failures in a row, then never more than 6 hours', () => {
  assert.deepEqual([1, 2, 3, 4, 5].map((n) => minutesAfter(nextEvidenceAttempt(n, at))), [1, 4, 16, 64, 256]);
  assert.equal(minutesAfter(nextEvidenceAttempt(6, at)), 360, 'capped at 6 hours');
  assert.equal(minutesAfter(nextEvidenceAttempt(40, at)), 360, 'and never gives up');
});

test('a B-LTA renewal is due 30 days before the timestamp certificate expires, and at least a day away', () => {
  const expiry = new Date(at.getTime() + 400 * 86_400_000);
  assert.equal(nextRenewal(expiry, at).getTime(), expiry.getTime() - EVIDENCE_RENEW_BEFORE_MS);
  // Already inside the margin: retried daily rather than on every poll.
  assert.equal(nextRenewal(new Date(at.getTime() + 86_400_000), at).getTime(), at.getTime() + 86_400_000);
});
