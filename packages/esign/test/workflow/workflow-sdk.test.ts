import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test, type TestContext } from 'node:test';
import { pollUntil } from '@signet/kit';
import { makeSignaturePng } from '../../../pdf/test/raster.fixture.ts';
import { drawnSignatureFinish } from '../support/drawn-signature.ts';
import { FormClient } from '../support/form-client.ts';
import { sdkFailure } from '../support/sdk-failure.ts';
import { startSmtpListener, type SmtpListener } from '../support/smtp-listener.ts';
import { b64, samplePdf } from '../support/sample-pdf.ts';
import { startReminderEsign } from '../reminders/reminders-harness.ts';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { seedUserAndApp } from '../support/esign-harness.ts';
import { toAddress, signingPathIn } from '../support/mail-parts.ts';

// DocuSign's public examples pauseSignatureWorkflow, unpauseSignatureWorkflow, scheduledSending
// and delayedRouting (github docusign/code-examples-node, lib/eSignature/examples) make these SDK
// calls with these models and arguments; nothing of them is copied. Their documents are PDFs here
// (the pause example sends a .txt: conversion is not what these tests are about), with the
// examples' anchor text /sn1/ on the page.
type Callback = (error: unknown, data: unknown, response: unknown) => void;
type Model = { constructFromObject(o: Record<string, unknown>): Record<string, unknown> } & (new () => Record<string, unknown>);
type WireWorkflow = { workflowStatus: string; currentWorkflowStepId?: string; resumeDate?: string; scheduledSending?: { status: string; resumeDate?: string }; workflowSteps: { workflowStepId: string; itemId: string; status: string; delayedRouting?: { resumeDate?: string; rules: { delay?: string; resumeDate?: string }[] } }[] };
type EnvelopesApi = {
  createEnvelope(accountId: string, opts: unknown, cb?: Callback): Promise<{ data: { envelopeId: string; status: string } }>;
  update(accountId: string, envelopeId: string, opts: unknown, cb?: Callback): Promise<{ data: { envelopeId: string } }>;
  getEnvelope(accountId: string, envelopeId: string): Promise<{ status: string; sentDateTime?: string; workflow?: WireWorkflow }>;
  listRecipients(accountId: string, envelopeId: string): Promise<{ signers: { email: string; status: string }[] }>;
  getEnvelopeWorkflowDefinition(accountId: string, envelopeId: string): Promise<WireWorkflow>;
  updateEnvelopeWorkflowDefinition(accountId: string, envelopeId: string, opts: { workflow: unknown }): Promise<WireWorkflow>;
  createEnvelopeWorkflowStepDefinition(accountId: string, envelopeId: string, opts: { workflowStep: unknown }): Promise<{ workflowStepId: string; itemId: string }>;
  deleteEnvelopeWorkflowStepDefinition(accountId: string, envelopeId: string, workflowStepId: string): Promise<unknown>;
  getEnvelopeScheduledSendingDefinition(accountId: string, envelopeId: string): Promise<{ rules?: { resumeDate?: string }[]; status?: string }>;
};
type Sdk = {
  ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void };
  EnvelopesApi: new (client: unknown) => EnvelopesApi;
} & Record<'Document' | 'SignHere' | 'Signer' | 'Tabs' | 'Recipients' | 'WorkflowStep' | 'Workflow' | 'EnvelopeDefinition' | 'EnvelopeDelayRule' | 'ScheduledSending' | 'DelayedRouting', Model>;
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;
const noop: Callback = () => undefined;
/** An SDK model instance as the JSON the wire carried. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
const HOUR_S = 3600;
const DAY_MS = 86_400_000;
const wait = { timeoutMs: 20_000, intervalMs: 20 };


// One esign (fake clock, real SMTP peer) for the file: the subtests below run in order on it.
let smtp: SmtpListener;
let env: Awaited<ReturnType<typeof startReminderEsign>>;
let pdf: string;

async function api(): Promise<EnvelopesApi> {
  const client = new docusign.ApiClient();
  client.setBasePath(`${env.h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${(await env.token()).access_token}`);
  return new docusign.EnvelopesApi(client);
}

/** The next mail to `email`, once it arrives. */
const mailTo = (email: string) => pollUntil(() => smtp.received.find((m) => toAddress(m) === email), { ...wait, what: `a mail to ${email}` });

/** The signer opens their link and signs with a drawn signature. */
async function sign(email: string): Promise<void> {
  const finish = await drawnSignatureFinish(new FormClient(env.h.origin), signingPathIn(await mailTo(email), env.h.origin));
  const answer = await finish(makeSignaturePng(600, 200));
  assert.equal(answer.status, 303, answer.text);
}

const document = () => docusign.Document.constructFromObject({ documentBase64: pdf, name: 'Welcome', fileExtension: 'pdf', documentId: 1 });

const subtests: [string, () => Promise<void>][] = [];
subtest('pauseSignatureWorkflow then unpauseSignatureWorkflow: routing stops before order 2 until the sender resumes it', async () => {
  const envelopes = await api();
  const signHere1 = docusign.SignHere.constructFromObject({ documentId: 1, pageNumber: 1, tabLabel: 'Sign Here', xPosition: 200, yPosition: 200 });
  const signHere2 = docusign.SignHere.constructFromObject({ documentId: 1, pageNumber: 1, tabLabel: ' Sign Here', xPosition: 300, yPosition: 200 });
  const signer1 = docusign.Signer.constructFromObject({ email: 'pause-1@example.com', name: 'Pat One', recipientId: 1, routingOrder: 1, tabs: docusign.Tabs.constructFromObject({ signHereTabs: [signHere1] }) });
  const signer2 = docusign.Signer.constructFromObject({ email: 'pause-2@example.com', name: 'Pat Two', recipientId: 2, routingOrder: 2, tabs: docusign.Tabs.constructFromObject({ signHereTabs: [signHere2] }) });
  const workflowStep = docusign.WorkflowStep.constructFromObject({ action: 'pause_before', triggerOnItem: 'routing_order', itemId: 2 });
  const envelopeDefinition = docusign.EnvelopeDefinition.constructFromObject({
    emailSubject: 'EnvelopeWorkflowTest', documents: [document()], status: 'sent',
    workflow: docusign.Workflow.constructFromObject({ workflowSteps: [workflowStep] }),
    recipients: docusign.Recipients.constructFromObject({ signers: [signer1, signer2] }),
  });
  const { envelopeId } = (await envelopes.createEnvelope(env.seed.accountId, { envelopeDefinition }, noop)).data;
  const created = await envelopes.getEnvelope(env.seed.accountId, envelopeId);
  assert.equal(created.workflow?.workflowStatus, 'in_progress', 'the step waits for routing to reach order 2');
  assert.deepEqual(created.workflow?.workflowSteps.map((s) => [s.itemId, s.status]), [['2', 'pending']]);

  await sign('pause-1@example.com');
  const paused = await (await api()).getEnvelope(env.seed.accountId, envelopeId);
  assert.equal(paused.status, 'delivered');
  assert.equal(paused.workflow?.workflowStatus, 'paused');
  assert.equal(paused.workflow?.currentWorkflowStepId, paused.workflow?.workflowSteps[0]?.workflowStepId);
  assert.equal(paused.workflow?.resumeDate, undefined, 'a plain pause never resumes on its own');
  assert.deepEqual((await (await api()).listRecipients(env.seed.accountId, envelopeId)).signers.map((s) => [s.email, s.status]), [['pause-1@example.com', 'completed'], ['pause-2@example.com', 'created']]);
  assert.equal(smtp.received.some((m) => toAddress(m) === 'pause-2@example.com'), false);

  // unpauseSignatureWorkflow: update with workflow.workflowStatus in_progress and resendEnvelope.
  const resumed = await (await api()).update(env.seed.accountId, envelopeId, {
    envelopeDefinition: docusign.EnvelopeDefinition.constructFromObject({ workflow: docusign.Workflow.constructFromObject({ workflowStatus: 'in_progress' }) }),
    resendEnvelope: true,
  }, noop);
  assert.deepEqual(resumed.data, { envelopeId });
  await sign('pause-2@example.com');
  await pollUntil(async () => (await (await api()).getEnvelope(env.seed.accountId, envelopeId)).status === 'completed', { ...wait, what: 'the envelope to complete' });
  const done = await (await api()).getEnvelope(env.seed.accountId, envelopeId);
  assert.deepEqual([done.workflow?.workflowStatus, done.workflow?.workflowSteps[0]?.status], ['in_progress', 'completed']);
  // Resuming what is not paused says so.
  assert.deepEqual(await sdkFailure((await api()).update(env.seed.accountId, envelopeId, { envelope: { workflow: { workflowStatus: 'in_progress' } } })), [400, 'ENVELOPE_INVALID_STATUS']);
});

/** The envelope DocuSign's scheduledSending example builds from its arguments: one signer, a sign-here anchor, a schedule. */
function scheduledEnvelope(args: { resumeDate: string; signerEmail: string; signerName: string }) {
  const rule = docusign.EnvelopeDelayRule.constructFromObject({ resumeDate: args.resumeDate.toString() });
  const signer1 = docusign.Signer.constructFromObject({ email: args.signerEmail, name: args.signerName, recipientId: '1', routingOrder: '1' });
  signer1.tabs = docusign.Tabs.constructFromObject({ signHereTabs: [docusign.SignHere.constructFromObject({ anchorString: '/sn1/', anchorYOffset: '10', anchorUnits: 'pixels', anchorXOffset: '20' })] });
  const env1 = new docusign.EnvelopeDefinition();
  env1.emailSubject = 'Please sign this document';
  env1.documents = [document()];
  env1.workflow = docusign.Workflow.constructFromObject({ scheduledSending: docusign.ScheduledSending.constructFromObject({ rules: [rule] }) });
  env1.recipients = docusign.Recipients.constructFromObject({ signers: [signer1] });
  env1.status = 'sent';
  return env1;
}

subtest('scheduledSending: the envelope is sent but reaches nobody until its resumeDate', async () => {
  const resumeDate = new Date(env.clock.now().getTime() + 2 * HOUR_S * 1000);
  const env1 = scheduledEnvelope({ resumeDate: resumeDate.toISOString(), signerEmail: 'scheduled@example.com', signerName: 'Sky Dule' });
  const { envelopeId, status } = (await (await api()).createEnvelope(env.seed.accountId, { envelopeDefinition: env1 }, noop)).data;
  assert.equal(status, 'sent');
  const scheduled = await (await api()).getEnvelope(env.seed.accountId, envelopeId);
  assert.deepEqual([scheduled.workflow?.workflowStatus, scheduled.workflow?.scheduledSending?.status, scheduled.sentDateTime], ['paused', 'in_progress', undefined]);
  assert.equal(Date.parse(scheduled.workflow?.resumeDate ?? ''), resumeDate.getTime());
  const definition = await (await api()).getEnvelopeScheduledSendingDefinition(env.seed.accountId, envelopeId);
  assert.equal(Date.parse(definition.rules?.[0]?.resumeDate ?? ''), resumeDate.getTime());

  env.clock.advance(2 * HOUR_S);
  const mail = await mailTo('scheduled@example.com');
  assert.equal(mail.subject, 'Please sign this document');
  const sent = await (await api()).getEnvelope(env.seed.accountId, envelopeId);
  assert.deepEqual([sent.workflow?.workflowStatus, sent.workflow?.scheduledSending?.status], ['in_progress', 'completed']);
  assert.equal(Date.parse(sent.sentDateTime ?? ''), resumeDate.getTime(), 'sent when the schedule said');
});

subtest('scheduledSending as its controller calls it, with the form\'s date input ("YYYY-MM-DD"): held until 00:00 UTC that day', async () => {
  // The controller hands the example an <input type="date"> value; the example passes it on as resumeDate.
  const formDate = new Date(env.clock.now().getTime() + 2 * DAY_MS).toISOString().slice(0, 10);
  const midnight = Date.parse(`${formDate}T00:00:00Z`);
  const args = { resumeDate: formDate, signerEmail: 'on-the-day@example.com', signerName: 'Day Break' };
  const env1 = scheduledEnvelope(args);
  const { envelopeId } = (await (await api()).createEnvelope(env.seed.accountId, { envelopeDefinition: env1 }, noop)).data;
  const scheduled = await (await api()).getEnvelope(env.seed.accountId, envelopeId);
  assert.equal(scheduled.workflow?.workflowStatus, 'paused');
  assert.equal(scheduled.workflow?.resumeDate, `${formDate}T00:00:00.0000000Z`, 'the day\'s start, in UTC');
  assert.equal((await (await api()).getEnvelopeScheduledSendingDefinition(env.seed.accountId, envelopeId)).rules?.[0]?.resumeDate, `${formDate}T00:00:00.0000000Z`);

  env.clock.advance((midnight - env.clock.now().getTime()) / 1000);
  await mailTo(args.signerEmail);
  assert.equal(Date.parse((await (await api()).getEnvelope(env.seed.accountId, envelopeId)).sentDateTime ?? ''), midnight);
});

subtest('a delayedRouting resumeDate given as a date alone is that day\'s 00:00 UTC too', async () => {
  const envelopes = await api();
  const { envelopeId } = (await envelopes.createEnvelope(env.seed.accountId, { envelopeDefinition: {
    emailSubject: 'Dated step', status: 'created', documents: [{ documentBase64: pdf, name: 'A', fileExtension: 'pdf', documentId: '1' }],
    recipients: { signers: [{ email: 'ds1@example.com', name: 'DS1', recipientId: '1', routingOrder: '1' }, { email: 'ds2@example.com', name: 'DS2', recipientId: '2', routingOrder: '2' }] },
    workflow: { workflowSteps: [{ action: 'pause_before', triggerOnItem: 'routing_order', itemId: '2', delayedRouting: { rules: [{ resumeDate: '2099-01-31' }] } }] },
  } }, noop)).data;
  const [step] = (await envelopes.getEnvelopeWorkflowDefinition(env.seed.accountId, envelopeId)).workflowSteps;
  assert.equal(step?.delayedRouting?.rules[0]?.resumeDate, '2099-01-31T00:00:00.0000000Z');
});

subtest('delayedRouting: routing order 2 is reached an hour after order 1 finishes', async () => {
  const signer1 = docusign.Signer.constructFromObject({ email: 'delay-1@example.com', name: 'Del One', recipientId: '1', routingOrder: '1' });
  const signer2 = docusign.Signer.constructFromObject({ email: 'delay-2@example.com', name: 'Del Two', recipientId: '2', routingOrder: '2' });
  const delayTime = '0.' + String(1) + ':00:00';
  const delayedRouting = docusign.DelayedRouting.constructFromObject({ rules: [docusign.EnvelopeDelayRule.constructFromObject({ delay: delayTime })] });
  const workflowStep = docusign.WorkflowStep.constructFromObject({ action: 'pause_before', triggerOnItem: 'routing_order', itemId: 2, delayedRouting });
  signer1.tabs = docusign.Tabs.constructFromObject({ signHereTabs: [docusign.SignHere.constructFromObject({ anchorString: '/sn1/', anchorYOffset: '10', anchorUnits: 'pixels', anchorXOffset: '20' })] });
  signer2.tabs = docusign.Tabs.constructFromObject({ signHereTabs: [docusign.SignHere.constructFromObject({ xPosition: '320', yPosition: '175', pageNumber: '1', documentId: '1' })] });
  const definition = new docusign.EnvelopeDefinition();
  definition.emailSubject = 'Please sign this document';
  definition.documents = [document()];
  definition.workflow = docusign.Workflow.constructFromObject({ workflowSteps: [workflowStep] });
  definition.recipients = docusign.Recipients.constructFromObject({ signers: [signer1, signer2] });
  definition.status = 'sent';
  const { envelopeId } = (await (await api()).createEnvelope(env.seed.accountId, { envelopeDefinition: definition }, noop)).data;
  await sign('delay-1@example.com');
  const delayed = await (await api()).getEnvelope(env.seed.accountId, envelopeId);
  assert.equal(delayed.workflow?.workflowStatus, 'paused');
  const step = delayed.workflow?.workflowSteps[0];
  assert.deepEqual([step?.status, step?.delayedRouting?.rules[0]?.delay], ['in_progress', '01:00:00']);
  assert.equal(Date.parse(delayed.workflow?.resumeDate ?? ''), env.clock.now().getTime() + HOUR_S * 1000);

  env.clock.advance(HOUR_S);
  await mailTo('delay-2@example.com');
  assert.equal((await (await api()).getEnvelope(env.seed.accountId, envelopeId)).workflow?.workflowStatus, 'in_progress');
});

subtest('a pause before the first routing order holds a sent envelope until the sender unpauses it with workflowStatus in_progress', async () => {
  const { envelopeId } = (await (await api()).createEnvelope(env.seed.accountId, { envelopeDefinition: {
    emailSubject: 'Held at the door', status: 'sent', documents: [{ documentBase64: pdf, name: 'A', fileExtension: 'pdf', documentId: '1' }],
    recipients: { signers: [{ email: 'door@example.com', name: 'Door', recipientId: '1', routingOrder: '1' }] },
    workflow: { workflowSteps: [{ action: 'pause_before', triggerOnItem: 'routing_order', itemId: '1' }] },
  } }, noop)).data;
  assert.equal((await (await api()).getEnvelope(env.seed.accountId, envelopeId)).workflow?.workflowStatus, 'paused');
  await (await api()).update(env.seed.accountId, envelopeId, { envelope: { workflow: { workflowStatus: 'in_progress' } } });
  await mailTo('door@example.com');

  // Another account's token sees nothing of it, and cannot resume or change it.
  const other = await seedUserAndApp(env.h);
  const code = (await authorizeViaForms(env.h, other)).searchParams.get('code') ?? '';
  const { access_token } = (await tokenRequest(env.h, { grant_type: 'authorization_code', code }, { id: other.clientId, secret: other.secret })).json() as { access_token: string };
  const client = new docusign.ApiClient();
  client.setBasePath(`${env.h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${access_token}`);
  const stranger = new docusign.EnvelopesApi(client);
  assert.deepEqual(await sdkFailure(stranger.getEnvelopeWorkflowDefinition(other.accountId, envelopeId)), [400, 'ENVELOPE_DOES_NOT_EXIST']);
  assert.deepEqual(await sdkFailure(stranger.update(other.accountId, envelopeId, { envelope: { workflow: { workflowStatus: 'in_progress' } } })), [400, 'ENVELOPE_DOES_NOT_EXIST']);
  assert.deepEqual(await sdkFailure(stranger.updateEnvelopeWorkflowDefinition(other.accountId, envelopeId, { workflow: { workflowSteps: [] } })), [400, 'ENVELOPE_DOES_NOT_EXIST']);
  assert.deepEqual(await sdkFailure(stranger.getEnvelopeWorkflowDefinition(env.seed.accountId, envelopeId)), [400, 'USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT']);
});

subtest('what is not done is refused by name, and nothing is stored', async () => {
  const envelopes = await api();
  const base = { emailSubject: 'Refused', status: 'sent', documents: [{ documentBase64: pdf, name: 'A', fileExtension: 'pdf', documentId: '1' }], recipients: { signers: [{ email: 'r@example.com', name: 'R', recipientId: '1', routingOrder: '1' }, { email: 's@example.com', name: 'S', recipientId: '2', routingOrder: '2' }] } };
  const refused = async (workflow: unknown, message: RegExp) => {
    try {
      await envelopes.createEnvelope(env.seed.accountId, { envelopeDefinition: { ...base, workflow } });
      assert.fail('expected a refusal');
    } catch (err) {
      const r = (err as { response?: { status: number; data: { errorCode: string; message: string } } }).response;
      assert.equal(r?.status, 400, String(err));
      assert.match(r?.data.message ?? '', message);
    }
  };
  await refused({ workflowSteps: [{ action: 'pause_before', triggerOnItem: 'routing_order', itemId: '2', recipientRouting: { rules: { conditionalRecipients: [{ recipientId: '2' }] } } }] }, /recipientId 2: recipientGroup\.recipients is empty/);
  await refused({ workflowSteps: [{ action: 'pause_before', triggerOnItem: 'routing_order', itemId: '5' }] }, /itemId 5 is not the routing order of any recipient/);
  await refused({ workflowSteps: [{ action: 'pause_after', triggerOnItem: 'routing_order', itemId: '2' }] }, /action must be one of pause_before/);
  await refused({ scheduledSending: { rules: [{ delay: '25:00:00' }] } }, /hours 00-23/);
  await refused({ scheduledSending: { rules: [{ delay: '01:00:00' }, { delay: '02:00:00' }] } }, /exactly one rule/);
  await refused({ scheduledSending: { rules: [{ resumeDate: 'next tuesday' }] } }, /ISO 8601/);
  await refused({ scheduledSending: { rules: [{ resumeDate: '2099-02-30' }] } }, /or a date \(e\.g\. "2026-04-10", read as 00:00 UTC\), got "2099-02-30"/);
  await refused({ scheduledSending: { rules: [{ resumeDate: '2099-01-31T09:00:00' }] } }, /with its time zone/);
  await refused({ scheduledSending: { rules: [{ delay: '400.00:00:00' }] } }, /at most 365 days/);
  await refused({ scheduledSending: { bulkListId: 'abc', rules: [{ delay: '01:00:00' }] } }, /bulkListId \(scheduled sending of a bulk send list is not supported yet\)/);
  assert.equal(smtp.received.some((m) => ['r@example.com', 's@example.com'].includes(toAddress(m))), false);
  // Envelopes::update cannot pause, nor change steps.
  const { envelopeId } = (await envelopes.createEnvelope(env.seed.accountId, { envelopeDefinition: { ...base, status: 'created' } }, noop)).data;
  assert.deepEqual(await sdkFailure(envelopes.update(env.seed.accountId, envelopeId, { envelope: { workflow: { workflowStatus: 'paused' } } })), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(await sdkFailure(envelopes.update(env.seed.accountId, envelopeId, { envelope: { workflow: { workflowSteps: [{ action: 'pause_before', triggerOnItem: 'routing_order', itemId: '2' }] } } })), [400, 'INVALID_REQUEST_BODY']);
});

subtest('the workflow definition endpoints change a draft\'s workflow, and refuse a sent envelope\'s', async () => {
  const envelopes = await api();
  const { envelopeId } = (await envelopes.createEnvelope(env.seed.accountId, { envelopeDefinition: {
    emailSubject: 'Draft', status: 'created', documents: [{ documentBase64: pdf, name: 'A', fileExtension: 'pdf', documentId: '1' }],
    recipients: { signers: [{ email: 'd1@example.com', name: 'D1', recipientId: '1', routingOrder: '1' }, { email: 'd2@example.com', name: 'D2', recipientId: '2', routingOrder: '2' }] },
  } }, noop)).data;
  assert.deepEqual(plain(await envelopes.getEnvelopeWorkflowDefinition(env.seed.accountId, envelopeId)), { workflowStatus: 'in_progress', workflowSteps: [] });
  const put = await envelopes.updateEnvelopeWorkflowDefinition(env.seed.accountId, envelopeId, { workflow: { workflowSteps: [{ workflowStepId: 'hold-2', action: 'pause_before', triggerOnItem: 'routing_order', itemId: '2' }] } });
  assert.deepEqual(put.workflowSteps.map((s) => [s.workflowStepId, s.itemId, s.status]), [['hold-2', '2', 'pending']]);
  assert.deepEqual(await sdkFailure(envelopes.createEnvelopeWorkflowStepDefinition(env.seed.accountId, envelopeId, { workflowStep: { action: 'pause_before', triggerOnItem: 'routing_order', itemId: '2' } })), [400, 'INVALID_REQUEST_BODY'], 'one step per routing order');
  await envelopes.deleteEnvelopeWorkflowStepDefinition(env.seed.accountId, envelopeId, 'hold-2');
  const added = await envelopes.createEnvelopeWorkflowStepDefinition(env.seed.accountId, envelopeId, { workflowStep: { action: 'pause_before', triggerOnItem: 'routing_order', itemId: '2', delayedRouting: { rules: [{ delay: '00:30:00' }] } } });
  assert.equal(added.itemId, '2');
  const current = await envelopes.getEnvelopeWorkflowDefinition(env.seed.accountId, envelopeId);
  assert.deepEqual(current.workflowSteps.map((s) => [s.workflowStepId, s.delayedRouting?.rules[0]?.delay]), [[added.workflowStepId, '00:30:00']]);

  await envelopes.update(env.seed.accountId, envelopeId, { envelope: { status: 'sent' } });
  assert.deepEqual(await sdkFailure(envelopes.updateEnvelopeWorkflowDefinition(env.seed.accountId, envelopeId, { workflow: { workflowSteps: [] } })), [400, 'ENVELOPE_INVALID_STATUS']);
  assert.deepEqual((await envelopes.getEnvelopeWorkflowDefinition(env.seed.accountId, envelopeId)).workflowSteps.map((s) => s.workflowStepId), [added.workflowStepId], 'unchanged');
});

function subtest(name: string, body: () => Promise<void>): void {
  subtests.push([name, body]);
}

test('workflows through the docusign-esign SDK', async (t: TestContext) => {
  smtp = await startSmtpListener(t);
  env = await startReminderEsign(t, smtp.url);
  pdf = b64(await samplePdf(1, 'Lorem /sn1/'));
  for (const [name, body] of subtests) await t.test(name, body);
});
