import assert from 'node:assert/strict';
import { test } from 'node:test';
import { launchChromium, pollUntil } from '@signet/kit';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { seedUserAndApp, startEsign } from '../support/esign-harness.ts';

test('members page in headless Chromium: an invitee joins by the mailed link, the administrator sees members and the pending invitation, names escaped', async (t) => {
  const h = await startEsign(t);
  const admin = await seedUserAndApp(h);
  const code = (await authorizeViaForms(h, admin)).searchParams.get('code') ?? '';
  const { access_token: token } = (await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: admin.clientId, secret: admin.secret })).json() as { access_token: string };
  const invite = (userName: string, email: string) => fetch(`${h.origin}/restapi/v2.1/accounts/${admin.accountId}/users`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ newUsers: [{ userName, email }] }),
  });
  assert.equal((await invite('Joiner <b>bold</b>', 'joiner@example.com')).status, 201);
  assert.equal((await invite('Waiting Walter', 'waiting@example.com')).status, 201);

  const browser = await launchChromium();
  t.after(() => browser.close());
  // The invitee: the link from the mail (the dev mailbox, which this machine may read), a password, the console.
  const invitee = await (await browser.newContext()).newPage();
  await pollUntil(async () => {
    await invitee.goto(`${h.origin}/dev/mailbox`);
    return (await invitee.getByRole('row').filter({ hasText: 'joiner@example.com' }).count()) > 0;
  }, { timeoutMs: 15_000, intervalMs: 100, what: 'the invitation mail' });
  await invitee.getByRole('row').filter({ hasText: 'joiner@example.com' }).getByRole('link').click();
  await invitee.getByRole('link', { name: /\/invitations\// }).click();
  await invitee.getByLabel('Choose a password').fill('joining for real');
  await invitee.getByRole('button', { name: 'Join the account' }).click();
  await invitee.waitForURL(`${h.origin}/console`);

  // The administrator's members page: the joined member among the members, Walter still invited.
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${h.origin}/console/members`);
  await page.locator('input[type=email]').fill(admin.email);
  await page.locator('input[type=password]').fill(admin.password);
  await page.getByRole('button', { name: /log in/i }).click();
  await page.waitForURL(`${h.origin}/console/members`);
  const members = page.locator('table[data-list=members] tbody tr');
  assert.deepEqual((await members.locator('td:nth-child(2)').allTextContents()).sort(), [admin.email, 'joiner@example.com'].sort());
  assert.equal(await members.filter({ hasText: 'joiner@example.com' }).locator('td').first().textContent(), 'Joiner <b>bold</b>');
  assert.equal(await page.locator('b').count(), 0, 'the name is text, not markup');
  assert.deepEqual(await page.locator('table[data-list=invitations] tbody tr td:nth-child(2)').allTextContents(), ['waiting@example.com']);
  // The joined member may not see the page: their DocuSign Sender profile does not manage the account.
  const denied = await invitee.goto(`${h.origin}/console/members`);
  assert.equal(denied?.status(), 400);
});
