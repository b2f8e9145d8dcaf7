import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ParsedMail } from 'mailparser';
import { pollUntil } from '@signet/kit';
import { logIn } from '../support/authorize.ts';
import { seedUserAndApp, startEsign } from '../support/esign-harness.ts';
import { FormClient, hiddenField } from '../support/form-client.ts';
import { startSmtpListener } from '../support/smtp-listener.ts';
import { toAddress } from '../support/mail-parts.ts';

const linkIn = (m: ParsedMail | undefined) => /https?:\/\/\S+\/signup\/verify\/[A-Za-z0-9_-]{43}/.exec(m?.text ?? '')?.[0];

test('sign-up: the same answer for a registered address, an account only after the e-mailed link and the sign-up password, no inbox flooding', async (t) => {
  const smtp = await startSmtpListener(t);
  const h = await startEsign(t, { settings: { SMTP_URL: smtp.url }, deps: { mailWorker: { pollIntervalMs: 50 } } });
  const existing = await seedUserAndApp(h);
  const mailsTo = (email: string) => smtp.received.filter((m) => toAddress(m) === email);
  const signUp = async (email: string, password: string, name = 'Some One') => {
    const client = new FormClient(h.origin);
    const form = (await client.get('/signup')).text;
    const answer = await client.post('/signup', { _csrf: hiddenField(form, '_csrf'), name, email, password });
    return { client, answer };
  };

  // Enumeration: a registered address and a new one get the same status and page.
  const taken = (await signUp(existing.email, 'another password')).answer;
  const fresh = (await signUp('new@example.com', 'my own password')).answer;
  assert.deepEqual([taken.status, fresh.status], [200, 200]);
  assert.equal(taken.text.replaceAll(existing.email, 'X'), fresh.text.replaceAll('new@example.com', 'X'));
  assert.doesNotMatch(taken.text, /already exists/);

  // The registered address's owner gets a notice with no link that creates anything.
  const notice = await pollUntil(() => mailsTo(existing.email)[0], { timeoutMs: 15_000, intervalMs: 20, what: 'the notice' });
  assert.match(notice.subject ?? '', /Your Signet account/);
  assert.equal(linkIn(notice), undefined);
  // Nothing changed for the registered user: the old password still works, the new one does not.
  const tryLogin = async (email: string, password: string) => {
    const client = new FormClient(h.origin);
    return (await logIn(client, (await client.get('/login')).text, email, password)).status;
  };
  assert.equal(await tryLogin(existing.email, 'another password'), 401);

  // No account before the link: the address cannot log in (and so cannot send).
  assert.equal(await h.store.accounts.findUserByEmail('new@example.com'), undefined);
  assert.equal(await tryLogin('new@example.com', 'my own password'), 401);

  const link = linkIn(await pollUntil(() => mailsTo('new@example.com')[0], { timeoutMs: 15_000, intervalMs: 20, what: 'the verification mail' }));
  assert.ok(link);
  const browser = new FormClient(h.origin);
  const page = await browser.get(new URL(link).pathname);
  assert.equal(page.status, 200);
  const confirm = (password: string) => browser.post(new URL(link).pathname, { _csrf: hiddenField(page.text, '_csrf'), password });
  // The link alone is not enough: the password chosen at sign-up must come with it.
  assert.equal((await confirm('not my password')).status, 401);
  assert.equal(await h.store.accounts.findUserByEmail('new@example.com'), undefined);
  const done = await confirm('my own password');
  assert.deepEqual([done.status, done.headers.location], [303, '/console']);
  assert.ok(await h.store.accounts.findUserByEmail('new@example.com'));
  assert.equal(await tryLogin('new@example.com', 'my own password'), 303);
  // Single use.
  assert.equal((await new FormClient(h.origin).get(new URL(link).pathname)).status, 404);

  // Pre-hijacking: an intruder signs up with the victim's address and the intruder's password.
  await signUp('victim@example.com', 'intruder password');
  const intruderLink = linkIn(await pollUntil(() => mailsTo('victim@example.com')[0], { timeoutMs: 15_000, intervalMs: 20, what: 'the intruder-triggered mail' }));
  assert.ok(intruderLink);
  // The victim, who signs up on their own, gets their own link; the intruder's link cannot be
  // completed with the victim's password, and once the victim's account exists it is dead.
  await signUp('victim@example.com', 'victim password');
  const victimLink = linkIn(await pollUntil(() => mailsTo('victim@example.com')[1], { timeoutMs: 15_000, intervalMs: 20, what: 'the victim\'s own mail' }));
  assert.ok(victimLink);
  const viaIntruderLink = new FormClient(h.origin);
  const intruderPage = await viaIntruderLink.get(new URL(intruderLink).pathname);
  assert.equal((await viaIntruderLink.post(new URL(intruderLink).pathname, { _csrf: hiddenField(intruderPage.text, '_csrf'), password: 'victim password' })).status, 401);
  const victim = new FormClient(h.origin);
  const victimPage = await victim.get(new URL(victimLink).pathname);
  assert.equal((await victim.post(new URL(victimLink).pathname, { _csrf: hiddenField(victimPage.text, '_csrf'), password: 'victim password' })).status, 303);
  assert.equal((await new FormClient(h.origin).get(new URL(intruderLink).pathname)).status, 404, 'the other links of the address are retired');
  assert.equal(await tryLogin('victim@example.com', 'intruder password'), 401);

  // Flooding: at most 3 sign-up mails per address per hour; the page answers the same.
  for (let i = 0; i < 5; i++) assert.equal((await signUp('flood@example.com', 'flood password')).answer.status, 200);
  await pollUntil(() => mailsTo('flood@example.com').length >= 3, { timeoutMs: 15_000, intervalMs: 20, what: 'three mails' });
  const outbox = await h.store.db.kysely.selectFrom('mail_outbox').select('id').where('recipient_email', '=', 'flood@example.com').execute();
  assert.equal(outbox.length, 3);
});
