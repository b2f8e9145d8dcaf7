// A bad signature image must not stop completion for every tenant: the Finish refuses an image
// the stamp cannot use, and an envelope whose completion fails anyway (stored before that check,
// or failing for another reason) leaves the queue with backoff, is shown to its sender, and is
// brought back by an operator's audited retry.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { pollUntil } from '@signet/kit';
import { createDevSealP12, extractText, readFormFields, removeFormFields, validatePdf } from '@signet/pdf';
import { applySigningChange } from '../../src/domain/signing/apply-signing-change.ts';
import { COMPLETION_RETRY } from '../../src/domain/signing/completion-retry.ts';
import { finishSigning } from '../../src/domain/signing/signing-changes.ts';
import { CompletionFailuresRepository } from '../../src/store/completion-failures-repository.ts';
import { SigningRepository } from '../../src/store/signing-repository.ts';
import { tokenPerFakeInstant } from '../support/authorize.ts';
import { seedUserAndApp, startEsign, type Harness } from '../support/esign-harness.ts';
import { FakeClock } from '../support/fake-clock.ts';
import { FormClient, formFields } from '../support/form-client.ts';
import { assertUnusableDrawingsRefused, drawnSignatureFinish } from '../support/drawn-signature.ts';
import { startSmtpListener, type SmtpListener } from '../support/smtp-listener.ts';
import { storeEnvelopeDeps, envelopesRepository } from '../support/store-envelope-deps.ts';
import { samplePdf } from '../support/sample-pdf.ts';
import { makeGarbagePng, makeSignaturePng } from '../../../pdf/test/raster.fixture.ts';
import { toAddress } from '../support/mail-parts.ts';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '../../bin/signet-esign.mjs');
const wait = { timeoutMs: 30_000, intervalMs: 25 };

type Envelope = { status: string; errorDetails?: { errorCode: string; message: string } };

describe('poisoned completions', () => {
  let h: Harness;
  let smtp: SmtpListener;
  let api: (method: string, path: string, body?: unknown) => Promise<{ status: number; json: () => Record<string, unknown> }>;
  let senderEmail: string;
  let accountId: string;
  let pdfBase64: string;
  // Fake time starts a day back: the backoff is skipped by moving it, and the outbox (real
  // timers) sends a mail once its fake due time has passed, so fake time must stay behind real time.
  const clock = new FakeClock(Date.now() - 86_400_000);

  // One server for both tests; what the harness would stop after a test it stops after the suite.
  const cleanups: (() => unknown)[] = [];
  after(async () => {
    for (const fn of cleanups.reverse()) await fn();
  });

  before(async () => {
    const ctx = { after: (fn: () => unknown) => void cleanups.push(fn) } as unknown as Parameters<typeof startEsign>[0];
    smtp = await startSmtpListener(ctx);
    h = await startEsign(ctx, {
      settings: { SMTP_URL: smtp.url },
      clock,
      deps: {
        converter: { convert: ({ bytes }) => validatePdf(bytes).then(() => bytes), extractText, readFormFields, removeFormFields },
        mailWorker: { pollIntervalMs: 50 },
        signing: { seal: createDevSealP12({ commonName: 'Poisoned completion test seal' }), completionPollMs: 50 },
      },
    });
    const seed = await seedUserAndApp(h);
    senderEmail = seed.email;
    accountId = seed.accountId;
    pdfBase64 = Buffer.from(await samplePdf(1)).toString('base64');
    // Fake time moves by days in these tests; a token per fake instant, not a code flow per call.
    const token = tokenPerFakeInstant(h, seed);
    api = async (method, path, body) => {
      const { access_token } = await token();
      const res = await fetch(`${h.origin}/restapi/v2.1/accounts/${seed.accountId}${path}`, {
        method,
        headers: { authorization: `Bearer ${access_token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, json: () => JSON.parse(text) as Record<string, unknown> };
    };
  });

  /** Sends a one-signer envelope and returns its id and the signer's link (from the real mail). */
  async function sendOne(subject: string, signer: string): Promise<{ envelopeId: string; link: string }> {
    const created = await api('POST', '/envelopes', {
      emailSubject: subject, status: 'sent',
      documents: [{ documentId: '1', name: 'Agreement.pdf', fileExtension: 'pdf', documentBase64: pdfBase64 }],
      recipients: { signers: [{ email: signer, name: 'Sam Signer', recipientId: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '500' }] } }] },
    });
    assert.equal(created.status, 201);
    const envelopeId = String(created.json().envelopeId);
    const mail = await pollUntil(() => smtp.received.find((m) => toAddress(m) === signer && m.subject === subject), { ...wait, what: `the invitation to ${signer}` });
    const link = mail.text?.split('\n').find((l) => l.startsWith(`${h.origin}/signing/`))?.trim() ?? assert.fail('a signing link');
    return { envelopeId, link: new URL(link).pathname };
  }

  const envelope = async (id: string) => (await api('GET', `/envelopes/${id}`)).json() as Envelope;

  test('Finish refuses a drawn signature the stamp could not use: bytes that are not a PNG after the magic, or 8000×8000 pixels', async () => {
    const { envelopeId, link } = await sendOne('Image checks', 'drawer@example.com');
    const finish = await drawnSignatureFinish(new FormClient(h.origin), link);
    await assertUnusableDrawingsRefused(finish);
    assert.equal((await envelope(envelopeId)).status, 'delivered', 'viewed, nothing signed');

    const good = await finish(makeSignaturePng(600, 200));
    assert.equal(good.status, 303, good.text);
    await pollUntil(async () => (await envelope(envelopeId)).status === 'completed', { ...wait, what: 'the well-signed envelope to complete' });
  });

  test('ten envelopes whose completion keeps failing do not hold up the next one; they back off, give up visibly, and an operator retries them', async () => {
    // Ten envelopes signed with a damaged image, stored as a Finish before the image check did.
    const deps = storeEnvelopeDeps(envelopesRepository(h.store.db), clock);
    const signing = new SigningRepository(h.store.db);
    const poisoned: string[] = [];
    for (let i = 0; i < 10; i++) {
      const { envelopeId } = await sendOne(`Poisoned ${i}`, `poisoned-${i}@example.com`);
      const current = await deps.store.find(accountId, envelopeId);
      assert.ok(current);
      const tabId = current.recipients[0]?.tabs[0]?.tabId ?? assert.fail('a tab');
      await signing.saveSignature(envelopeId, '1', { kind: 'image', image: makeGarbagePng(), signedTabIds: [tabId], adoptedAt: clock.now() });
      await applySigningChange(deps, accountId, envelopeId, (e) => finishSigning(deps, e, '1', clock.now(), {}));
      poisoned.push(envelopeId);
    }
    clock.advance(1);
    // Then one good envelope, signed in the page with a typed signature: it is completed at once.
    const good = await sendOne('Healthy', 'healthy@example.com');
    const signer = new FormClient(h.origin);
    const page = await signer.get(good.link);
    const tabs = [...page.text.matchAll(/data-tab-id="([^"]+)"/g)].map((m) => m[1] ?? '');
    const finished = await signer.post(`${good.link}/finish`, { ...formFields(page.text, `${good.link}/finish`), signatureKind: 'typed', signatureText: 'Sam Signer', signedTabs: tabs.join(',') });
    assert.equal(finished.status, 303, finished.text);
    await pollUntil(async () => (await envelope(good.envelopeId)).status === 'completed', { ...wait, what: 'the healthy envelope to complete behind ten failing ones' });

    // Each failing envelope says why it is not completed, in the Envelope model's errorDetails.
    const failures = new CompletionFailuresRepository(h.store.db);
    await pollUntil(async () => (await failures.list()).length === 10, { ...wait, what: 'ten recorded failures' });
    const first = await envelope(poisoned[0]!);
    assert.equal(first.status, 'signed');
    assert.equal(first.errorDetails?.errorCode, 'COMPLETION_FAILED');
    assert.match(first.errorDetails?.message ?? '', /could not be stamped and sealed \(1 try\)\. The service tries again at /);
    assert.doesNotMatch(first.errorDetails?.message ?? '', /PdfError|decoded|stack/i, 'no internals for API clients');
    const trail = (await api('GET', `/envelopes/${poisoned[0]!}/audit_events`)).json() as { auditEvents: { eventFields: { name: string; value: string }[] }[] };
    const actions = trail.auditEvents.map((e) => e.eventFields.find((f) => f.name === 'Action')?.value);
    assert.ok(actions.includes('Completion Failed'), `the sender's trail shows it: ${actions.join(', ')}`);

    // Backoff: nothing is tried again before its time; each step of fake time buys one try.
    const attemptsOf = async () => (await failures.list()).map((p) => p.attempts);
    assert.deepEqual(await attemptsOf(), Array(10).fill(1));
    for (let attempt = 2; attempt <= COMPLETION_RETRY.attempts; attempt++) {
      clock.advance((COMPLETION_RETRY.firstDelayMs * COMPLETION_RETRY.factor ** (attempt - 2)) / 1000);
      await pollUntil(async () => (await attemptsOf()).every((a) => a === attempt), { ...wait, what: `try ${attempt} of each` });
    }
    // Given up: out of the queue for good, and the sender is told by mail.
    const spent = await failures.list();
    assert.ok(spent.every((p) => p.failedAt !== undefined && p.nextAttemptAt === undefined));
    clock.advance(24 * 3600);
    const late = await envelope(poisoned[0]!);
    assert.match(late.errorDetails?.message ?? '', /has stopped trying; the operator has been told and can retry it/);
    const notices = await pollUntil(() => {
      const found = smtp.received.filter((m) => toAddress(m) === senderEmail && /^Action needed: "Poisoned \d" could not be completed$/.test(m.subject ?? ''));
      return found.length === 10 ? found : undefined;
    }, { ...wait, what: 'the sender\'s ten notices' });
    assert.match(notices[0]?.text ?? '', /signatures are kept/);
    assert.deepEqual(await attemptsOf(), Array(10).fill(COMPLETION_RETRY.attempts), 'a day later, still no automatic try');

    // The operator lists them and, once the cause is repaired, retries one: audited and completed.
    const listed = JSON.parse((await cli(['completion', 'list'])).stdout) as { envelopeId: string; gaveUpAt?: string; lastError: string }[];
    assert.deepEqual(listed.map((l) => l.envelopeId).sort(), [...poisoned].sort());
    assert.ok(listed.every((l) => l.gaveUpAt && /could not be decoded/.test(l.lastError)), 'the operator sees the real error');
    const target = poisoned[3]!;
    await h.store.db.kysely
      .updateTable('adopted_signatures').set({ kind: 'typed', typed_text: 'Sam Signer', image: null }).where('envelope_id', '=', target).execute();
    const retried = await cli(['completion', 'retry', '--envelope', target, '--by', 'Olga Operator']);
    assert.equal(retried.code, 0, retried.stderr);
    await pollUntil(async () => (await envelope(target)).status === 'completed', { ...wait, what: 'the retried envelope to complete' });
    const retriedTrail = (await api('GET', `/envelopes/${target}/audit_events`)).json() as { auditEvents: { eventFields: { name: string; value: string }[] }[] };
    const retriedActions = retriedTrail.auditEvents.map((e) => e.eventFields.find((f) => f.name === 'Action')?.value);
    assert.deepEqual(retriedActions.slice(-2), ['Completion Retried', 'Completed']);
    assert.ok(retriedTrail.auditEvents.some((e) => e.eventFields.some((f) => /Olga Operator/.test(f.value))), 'who retried is in the trail');
    assert.equal((await failures.find(target)), undefined, 'the failure record is gone once completed');

    // A retry of something that is not a failed completion is refused, naming why.
    const wrong = await cli(['completion', 'retry', '--envelope', good.envelopeId]);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /ENVELOPE_INVALID_STATUS: .*not a signed envelope whose completion failed/);
  });

  function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', DATA_DIR: h.dataDir, PUBLIC_URL: h.origin }, timeout: 60_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
      });
    });
  }
});
