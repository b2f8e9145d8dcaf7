import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test, type TestContext } from 'node:test';
import { pollUntil } from '@signet/kit';
import { makeSignaturePng } from '../../../pdf/test/raster.fixture.ts';
import { FormClient, formFields } from '../support/form-client.ts';
import { sdkFailure } from '../support/sdk-failure.ts';
import { startSmtpListener, type SmtpListener } from '../support/smtp-listener.ts';
import { b64, samplePdf } from '../support/sample-pdf.ts';
import { startReminderEsign } from '../reminders/reminders-harness.ts';
import { toAddress, signingPathIn } from '../support/mail-parts.ts';

// DocuSign's useConditionalRecipients example (github docusign/code-examples-node,
// lib/eSignature/examples) makes these SDK calls with these models; nothing of it is copied. Its
// document is a .txt there; a PDF here (conversion is not what this is about).
type Model = { constructFromObject(o: Record<string, unknown>): Record<string, unknown> } & (new () => Record<string, unknown>);
type WireStep = { itemId: string; status: string; recipientRouting?: { rules: { conditionalRecipients: { recipientId: string; conditions: { recipientLabel: string }[] }[] } } };
type EnvelopesApi = {
  createEnvelope(accountId: string, opts: unknown): Promise<{ envelopeId: string }>;
  getEnvelope(accountId: string, envelopeId: string): Promise<{ status: string; workflow?: { workflowStatus: string; workflowSteps: WireStep[] } }>;
  listRecipients(accountId: string, envelopeId: string, opts?: unknown): Promise<{ signers: { recipientId: string; name: string; email: string; status: string; tabs?: { checkboxTabs?: { tabId: string; tabLabel: string }[] } }[] }>;
  update(accountId: string, envelopeId: string, opts: unknown): Promise<unknown>;
};
type Sdk = { ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void }; EnvelopesApi: new (client: unknown) => EnvelopesApi }
  & Record<'Document' | 'SignHere' | 'Checkbox' | 'Signer' | 'Tabs' | 'Recipients' | 'RecipientOption' | 'RecipientGroup' | 'ConditionalRecipientRuleFilter' | 'ConditionalRecipientRuleCondition' | 'ConditionalRecipientRule' | 'RecipientRouting' | 'RecipientRules' | 'WorkflowStep' | 'Workflow' | 'EnvelopeDefinition', Model>;
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;
const wait = { timeoutMs: 20_000, intervalMs: 20 };

let smtp: SmtpListener;
let env: Awaited<ReturnType<typeof startReminderEsign>>;
let pdf: string;

async function api(): Promise<EnvelopesApi> {
  const client = new docusign.ApiClient();
  client.setBasePath(`${env.h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${(await env.token()).access_token}`);
  return new docusign.EnvelopesApi(client);
}

const mailTo = (email: string) => pollUntil(() => smtp.received.find((m) => toAddress(m) === email), { ...wait, what: `a mail to ${email}` });

/** The example's envelope: signer 1 with a checkbox, placeholder signer 2 chosen by its value. */
function exampleEnvelope(prefix: string, conditions: { value: unknown; label: string }[] = [{ value: false, label: 'signer2a' }, { value: true, label: 'signer2b' }]) {
  const signHere1 = docusign.SignHere.constructFromObject({ documentId: 1, pageNumber: 1, tabLabel: 'Sign Here', xPosition: 200, yPosition: 200 });
  const signHere2 = docusign.SignHere.constructFromObject({ documentId: 1, pageNumber: 1, tabLabel: ' Sign Here', recipientId: 2, xPosition: 300, yPosition: 200 });
  const checkbox = docusign.Checkbox.constructFromObject({ documentId: 1, pageNumber: 1, name: 'ClickToApprove', selected: false, tabLabel: 'ApproveWhenChecked', xPosition: 50, yPosition: 50 });
  const signer1 = docusign.Signer.constructFromObject({ email: `${prefix}-1@example.com`, name: 'Pat Purchaser', recipientId: 1, routingOrder: 1, roleName: 'Purchaser', tabs: docusign.Tabs.constructFromObject({ signHereTabs: [signHere1], checkboxTabs: [checkbox] }) });
  const signer2 = docusign.Signer.constructFromObject({ name: 'Approver', recipientId: 2, routingOrder: 2, roleName: 'Approver', tabs: docusign.Tabs.constructFromObject({ signHereTabs: [signHere2] }) });
  const signer2a = docusign.RecipientOption.constructFromObject({ email: `${prefix}-2a@example.com`, name: 'Ann Unchecked', roleName: 'Signer when not checked', recipientLabel: 'signer2a' });
  const signer2b = docusign.RecipientOption.constructFromObject({ email: `${prefix}-2b@example.com`, name: 'Bo Checked', roleName: 'Signer when checked', recipientLabel: 'signer2b' });
  const recipientGroup = docusign.RecipientGroup.constructFromObject({ groupName: 'Approver', groupMessage: 'Members of this group approve a workflow', recipients: [signer2a, signer2b] });
  const conditionModels = conditions.map((c, i) => docusign.ConditionalRecipientRuleCondition.constructFromObject({
    filters: [docusign.ConditionalRecipientRuleFilter.constructFromObject({ scope: 'tabs', recipientId: 1, tabId: 'ApprovalTab', operator: 'equals', value: c.value, tabLabel: 'ApproveWhenChecked', tabType: 'checkbox' })],
    order: i + 1, recipientLabel: c.label,
  }));
  const conditionalRecipient = docusign.ConditionalRecipientRule.constructFromObject({ conditions: conditionModels, recipientGroup, recipientId: 2, order: 0 });
  const recipientRouting = docusign.RecipientRouting.constructFromObject({ rules: docusign.RecipientRules.constructFromObject({ conditionalRecipients: [conditionalRecipient] }) });
  const workflowStep = docusign.WorkflowStep.constructFromObject({ action: 'pause_before', triggerOnItem: 'routing_order', itemId: 2, status: 'pending', recipientRouting });
  return docusign.EnvelopeDefinition.constructFromObject({
    emailSubject: 'EnvelopeWorkflowTest', documents: [docusign.Document.constructFromObject({ documentBase64: pdf, name: 'Welcome', fileExtension: 'pdf', documentId: 1 })],
    status: 'sent', workflow: docusign.Workflow.constructFromObject({ workflowSteps: [workflowStep] }), recipients: docusign.Recipients.constructFromObject({ signers: [signer1, signer2] }),
  });
}

/** Signer 1 opens their link, sets the checkbox, signs (drawn) and finishes, as the page's script posts it. */
async function signFirst(prefix: string, envelopeId: string, checked: boolean): Promise<void> {
  const tabs = (await (await api()).listRecipients(env.seed.accountId, envelopeId, { includeTabs: 'true' })).signers[0]?.tabs;
  const checkboxId = tabs?.checkboxTabs?.[0]?.tabId ?? assert.fail('the checkbox tab');
  const signer = new FormClient(env.h.origin);
  const path = signingPathIn(await mailTo(`${prefix}-1@example.com`), env.h.origin);
  const page = await signer.get(path);
  assert.equal(page.status, 200, page.text);
  const signTabs = [...page.text.matchAll(/data-tab-id="([^"]+)"/g)].map((m) => m[1] ?? '');
  const png = Buffer.from(makeSignaturePng(600, 200)).toString('base64');
  const answer = await signer.post(`${path}/finish`, {
    ...formFields(page.text, `${path}/finish`), signatureKind: 'image', signatureImage: `data:image/png;base64,${png}`, signedTabs: signTabs.join(','), tabValues: JSON.stringify({ [checkboxId]: String(checked) }),
  });
  assert.equal(answer.status, 303, answer.text);
}

test('conditional recipients through the docusign-esign SDK', async (t: TestContext) => {
  smtp = await startSmtpListener(t);
  env = await startReminderEsign(t, smtp.url);
  pdf = b64(await samplePdf(1, 'Welcome'));

  await t.test('useConditionalRecipients: the checkbox signer 1 leaves names signer 2 (checked → 2b, unchecked → 2a)', async () => {
    for (const [prefix, checked, chosen] of [['cr-on', true, 'Bo Checked'], ['cr-off', false, 'Ann Unchecked']] as const) {
      const { envelopeId } = await (await api()).createEnvelope(env.seed.accountId, { envelopeDefinition: exampleEnvelope(prefix) });
      const created = await (await api()).getEnvelope(env.seed.accountId, envelopeId);
      const step = created.workflow?.workflowSteps[0];
      assert.deepEqual([step?.itemId, step?.status, step?.recipientRouting?.rules.conditionalRecipients[0]?.conditions.map((c) => c.recipientLabel)], ['2', 'pending', ['signer2a', 'signer2b']]);
      await signFirst(prefix, envelopeId, checked);
      const address = `${prefix}-${checked ? '2b' : '2a'}@example.com`;
      const mail = await mailTo(address);
      assert.equal(mail.subject, 'EnvelopeWorkflowTest');
      const after = await (await api()).getEnvelope(env.seed.accountId, envelopeId);
      assert.deepEqual([after.workflow?.workflowStatus, after.workflow?.workflowSteps[0]?.status], ['in_progress', 'completed']);
      const signers = (await (await api()).listRecipients(env.seed.accountId, envelopeId)).signers;
      assert.deepEqual(signers.map((s) => [s.recipientId, s.name, s.email, s.status]), [['1', 'Pat Purchaser', `${prefix}-1@example.com`, 'completed'], ['2', chosen, address, 'sent']]);
      assert.equal(smtp.received.some((m) => toAddress(m) === `${prefix}-${checked ? '2a' : '2b'}@example.com`), false, 'the other option hears nothing');
    }
  });

  await t.test('no condition met: routing holds before order 2, and resuming without naming signer 2 is refused', async () => {
    const { envelopeId } = await (await api()).createEnvelope(env.seed.accountId, { envelopeDefinition: exampleEnvelope('cr-none', [{ value: true, label: 'signer2b' }]) });
    await signFirst('cr-none', envelopeId, false);
    await pollUntil(async () => ((await (await api()).getEnvelope(env.seed.accountId, envelopeId)).workflow?.workflowStatus === 'paused' ? true : undefined), { ...wait, what: 'the pause' });
    const signers = (await (await api()).listRecipients(env.seed.accountId, envelopeId)).signers;
    assert.deepEqual(signers.map((s) => [s.email, s.status]), [['cr-none-1@example.com', 'completed'], ['', 'created']]);
    assert.deepEqual(await sdkFailure((await api()).update(env.seed.accountId, envelopeId, { envelope: { workflow: { workflowStatus: 'in_progress' } } })), [400, 'ENVELOPE_INVALID_STATUS']);
  });

  await t.test('what a rule cannot mean is refused, naming it', async () => {
    const base = exampleEnvelope('cr-bad') as { workflow: { workflowSteps: Record<string, unknown>[] }; recipients: { signers: Record<string, unknown>[] } };
    const json = JSON.parse(JSON.stringify(base)) as typeof base;
    const rule = () => (json.workflow.workflowSteps[0] as { recipientRouting: { rules: { conditionalRecipients: Record<string, unknown>[] } } }).recipientRouting.rules.conditionalRecipients[0]!;
    const filter = () => ((rule().conditions as Record<string, unknown>[])[0]!.filters as Record<string, unknown>[])[0]!;
    const cases: [() => void, RegExp][] = [
      [() => { filter().operator = 'contains'; }, /operator must be one of equals, notEquals/],
      [() => { filter().recipientId = '2'; }, /recipientId 2, who does not act before routing order 2/],
      [() => { filter().tabLabel = 'Nope'; }, /tabLabel "Nope", which recipient 1 has no tab of/],
      [() => { filter().tabType = 'text'; }, /tabType "text", but "ApproveWhenChecked" is a checkbox tab/],
      [() => { (rule().conditions as Record<string, unknown>[])[0]!.recipientLabel = 'signer9'; }, /recipientLabel "signer9", which is not in recipientGroup/],
      [() => { rule().recipientId = '1'; json.recipients.signers[1]!.email = 'named@example.com'; }, /recipientId 1 is not a signer of routing order 2/],
      [() => { ((rule().recipientGroup as Record<string, unknown>).recipients as Record<string, unknown>[])[0]!.signingGroupId = '7'; }, /signingGroupId \(signing groups are not supported\)/],
      [() => { json.workflow.workflowSteps[0]!.delayedRouting = { rules: [{ delay: '01:00:00' }] }; }, /cannot be combined with recipientRouting/],
      // Without a rule naming them, a signer still needs an address.
      [() => { delete (json.workflow.workflowSteps[0] as Record<string, unknown>).recipientRouting; }, /INVALID_EMAIL_ADDRESS_FOR_RECIPIENT|email address for the recipient is invalid/],
    ];
    for (const [edit, message] of cases) {
      const body = JSON.parse(JSON.stringify(base)) as typeof base;
      Object.assign(json, body);
      edit();
      const res = await fetch(`${env.h.origin}/restapi/v2.1/accounts/${env.seed.accountId}/envelopes`, { method: 'POST', headers: { authorization: `Bearer ${(await env.token()).access_token}`, 'content-type': 'application/json' }, body: JSON.stringify(json) });
      const answer = (await res.json()) as { errorCode: string; message: string };
      assert.equal(res.status, 400, JSON.stringify(answer));
      assert.match(`${answer.errorCode}: ${answer.message}`, message);
    }
  });
});
