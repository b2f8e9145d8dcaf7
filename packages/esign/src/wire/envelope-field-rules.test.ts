import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parseEnvelopeDefinition } from '../restapi/envelopes/parse-envelope-definition.ts';
import { EsignError } from '../errors.ts';
import type { ModelFieldRule } from './check-model-fields.ts';
import { ENVELOPE_UPDATE_FIELDS, SIGNER_CORRECTION_FIELDS } from './envelope-field-rules.ts';
import { parseEnvelopeUpdate } from '../restapi/envelopes/parse-envelope-update.ts';
import { CORRECTION_RULE_TABLES, FIELD_RULE_TABLES } from './field-rule-tables.ts';
import { parseTemplateDefinition } from '../restapi/templates/parse-template-definition.ts';
import { parseTemplatedEnvelope } from '../restapi/templates/parse-templated-envelope.ts';

// The SDK's model files are the wire contract: a field a new SDK adds fails this test until it
// is given a rule, so it can never be accepted unnoticed.
const modelDir = join(dirname(createRequire(import.meta.url).resolve('docusign-esign')), 'model');
function sdkFields(model: string): string[] {
  const source = readFileSync(join(modelDir, `${model}.js`), 'utf8');
  const fields = new Set([...source.matchAll(/data\.hasOwnProperty\('([A-Za-z0-9]+)'\)/g)].map((m) => m[1]!));
  // `<field>Metadata` describes a field for DocuSign's editors (ignored here); envelopeMetadata is a field of its own.
  return [...fields].filter((f) => !(f.endsWith('Metadata') && fields.has(f.slice(0, -'Metadata'.length)))).sort();
}

// The models field-rule-tables.ts lists (docs/esign-envelope-fields.md shows the same tables).
const TABLES: [string, Readonly<Record<string, ModelFieldRule>>][] = FIELD_RULE_TABLES.map((t) => [t.model, t.rules]);
// updateRecipients reads each recipient list by the same SDK models (CORRECTION_RULE_TABLES): walked too.
const CORRECTION_TABLES: [string, Readonly<Record<string, ModelFieldRule>>][] = CORRECTION_RULE_TABLES.map((t) => [t.model, t.rules]);

test('every field of the SDK\'s EnvelopeDefinition, Recipients, Signer, CarbonCopy, Document and Envelope (update) models has a rule, and each refusal says why', () => {
  for (const [model, rules] of [...TABLES, ...CORRECTION_TABLES, ['Envelope', ENVELOPE_UPDATE_FIELDS] as const]) {
    assert.deepEqual(Object.keys(rules).sort(), sdkFields(model), model);
    for (const [field, rule] of Object.entries(rules)) {
      if (rule.rule === 'refused' || rule.rule === 'limited') assert.ok(rule.why.length > 10, `${model}.${field}`);
    }
  }
});

const pdf = Buffer.from('%PDF-1.7\n').toString('base64');
const definition = (over: { envelope?: object; recipients?: object; signer?: object; cc?: object; inPerson?: object; certified?: object; agent?: object; editor?: object; intermediary?: object; witness?: object; document?: object } = {}) => ({
  emailSubject: 'Honest', status: 'created', ...over.envelope,
  documents: [{ documentId: '1', name: 'A.pdf', fileExtension: 'pdf', documentBase64: pdf, ...over.document }],
  recipients: {
    signers: [{ email: 'signer@example.com', name: 'Sam', recipientId: '1', ...over.signer }],
    carbonCopies: [{ email: 'cc@example.com', name: 'Cy', recipientId: '2', ...over.cc }],
    ...(over.inPerson ? { inPersonSigners: [{ hostEmail: 'host@example.com', hostName: 'Hal', signerName: 'Ivy', recipientId: '3', ...over.inPerson }] } : {}),
    ...(over.certified ? { certifiedDeliveries: [{ email: 'cd@example.com', name: 'Cid', recipientId: '4', ...over.certified }] } : {}),
    ...(over.agent ? { agents: [{ email: 'agent@example.com', name: 'Ada', recipientId: '5', ...over.agent }] } : {}),
    ...(over.editor ? { editors: [{ email: 'editor@example.com', name: 'Eda', recipientId: '6', ...over.editor }] } : {}),
    ...(over.intermediary ? { intermediaries: [{ email: 'im@example.com', name: 'Ida', recipientId: '7', ...over.intermediary }] } : {}),
    ...(over.witness ? { witnesses: [{ email: 'w@example.com', name: 'Wes', recipientId: '8', witnessFor: '1', ...over.witness }] } : {}),
    ...over.recipients,
  },
});
const refusal = (body: unknown): string => {
  try {
    parseEnvelopeDefinition(body);
  } catch (err) {
    assert.ok(err instanceof EsignError, String(err));
    assert.equal(err.code, 'INVALID_REQUEST_BODY');
    return err.message;
  }
  return '';
};

test('each refused field that asks for something is a 400 naming it; false, blank and empty lists ask for nothing', () => {
  const where = { EnvelopeDefinition: 'envelope', Recipients: 'recipients', Signer: 'signer', CarbonCopy: 'cc', InPersonSigner: 'inPerson', CertifiedDelivery: 'certified', Agent: 'agent', Editor: 'editor', Intermediary: 'intermediary', Witness: 'witness', Document: 'document' } as const;
  let checked = 0;
  for (const [model, rules] of TABLES) {
    for (const [field, rule] of Object.entries(rules)) {
      if (rule.rule !== 'refused' && rule.rule !== 'limited') continue;
      const message = refusal(definition({ [where[model as keyof typeof where]]: { [field]: rule.rule === 'limited' ? 'sms' : 'true' } }));
      assert.match(message, new RegExp(`${field}.*\\(${rule.why.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)`), `${model}.${field}: ${message}`);
      for (const nothing of [false, '', 'false', []]) assert.equal(refusal(definition({ [where[model as keyof typeof where]]: { [field]: nothing } })), '', `${model}.${field} = ${JSON.stringify(nothing)}`);
      checked++;
    }
  }
  assert.ok(checked > 120, `${checked} refused fields`);
  // Every problem at once, with the path of the recipient.
  assert.match(refusal(definition({ signer: { addAccessCodeToEmail: 'true', socialAuthentications: [{ authentication: 'Facebook' }] } })), / recipients\.signers\[0\] \(Signer\): not supported: addAccessCodeToEmail \(the access code is never mailed.*\); socialAuthentications \(/);
  assert.equal(refusal(definition({ signer: { deliveryMethod: 'Email' } })), '', 'e-mail delivery is what happens');
});

test('field names match case-insensitively, as DocuSign\'s examples send them', () => {
  const draft = parseEnvelopeDefinition({
    EmailSubject: 'Cased', Status: 'created',
    Documents: [{ DocumentId: '1', Name: 'A.pdf', FileExtension: 'pdf', DocumentBase64: pdf }],
    Recipients: { Signers: [{ Email: 'signer@example.com', Name: 'Sam', RecipientId: '1', RoutingOrder: '2' }] },
  });
  assert.equal(draft.emailSubject, 'Cased');
  assert.deepEqual(draft.recipients.map((r) => [r.email, r.routingOrder]), [['signer@example.com', 2]]);
  assert.match(refusal(definition({ signer: { SocialAuthentications: [{ authentication: 'Facebook' }] } })), /SocialAuthentications \(recipient authentication/);
  // The SMS check, spelled as DocuSign's smsAuthentication example spells it (senderprovidednumbers).
  const sms = parseEnvelopeDefinition({ status: 'created', documents: [{ documentId: '1', name: 'A.pdf', documentBase64: pdf }], recipients: { signers: [{ email: 's@example.com', name: 'S', recipientId: '1', SmsAuthentication: { senderprovidednumbers: ['+1 (555) 010-2030'] }, idCheckConfigurationName: 'SMS Auth $', requireIdLookup: 'true' }] } });
  assert.deepEqual(sms.recipients[0]?.passcode, { method: 'sms', destinations: ['+15550102030'], askedAs: { kind: 'idCheck' } });
});

test('Envelopes::update refuses what it would not do (new recipients, a workflow\'s steps) instead of a 200 that changes nothing; it resumes a paused workflow', () => {
  const refusedUpdate = (body: unknown) => assert.throws(() => parseEnvelopeUpdate(body), (err: EsignError) => err.code === 'INVALID_REQUEST_BODY' && /(Envelope|Workflow\)): not supported/.test(err.message));
  assert.deepEqual(parseEnvelopeUpdate({ workflow: { workflowStatus: 'in_progress' } }), { action: 'resume' });
  refusedUpdate({ workflow: { workflowSteps: [{ action: 'pause_before', triggerOnItem: 'routing_order', itemId: '2' }] } });
  refusedUpdate({ status: 'sent', recipients: { signers: [{ email: 'x@example.com', name: 'X', recipientId: '9' }] } });
  refusedUpdate({ notification: { reminders: { reminderEnabled: 'true', reminderDelay: '2' } } });
  assert.deepEqual(parseEnvelopeUpdate({ status: 'voided', voidedReason: 'typo', emailSubject: 'New' }), { action: 'void', voidedReason: 'typo' });
  // What a client read and sends back unchanged asks for nothing new.
  assert.deepEqual(parseEnvelopeUpdate({ envelopeId: 'e', status: 'sent', sentDateTime: '2026-01-01T00:00:00.0000000Z', allowMarkup: 'false' }), { action: 'send' });
});

test('templates read agents, editors, intermediaries and what an agent may change as roles; what they keep none of is still refused by name', () => {
  const template = (recipients: object) => parseTemplateDefinition({ name: 'T', documents: [{ documentId: '1', name: 'A.pdf', documentBase64: pdf }], recipients });
  const read = template({ agents: [{ recipientId: '1', roleName: 'A' }], editors: [{ recipientId: '2', roleName: 'E', routingOrder: '2' }], intermediaries: [{ recipientId: '3', roleName: 'I', routingOrder: '3' }], signers: [{ recipientId: '4', roleName: 'S', routingOrder: '4', agentCanEditName: 'true', agentCanEditEmail: 'true' }] });
  assert.deepEqual(read.roles.map((r) => [r.type, r.roleName, r.agentCanEditName ?? false, r.agentCanEditEmail ?? false]), [['signer', 'S', true, true], ['agent', 'A', false, false], ['editor', 'E', false, false], ['intermediary', 'I', false, false]]);
  assert.throws(() => template({ seals: [{ recipientId: '1' }] }), (err: EsignError) => err.code === 'INVALID_REQUEST_BODY' && err.message.includes('seals'));
  assert.throws(() => template({ agents: [{ recipientId: '1', roleName: 'A', accessCode: '1234' }] }), (err: EsignError) => err.code === 'INVALID_REQUEST_BODY' && err.message.includes('accessCode is not supported on templates'));
  const inline = (signer: object) => parseTemplatedEnvelope({ status: 'created', compositeTemplates: [{ inlineTemplates: [{ sequence: '1', documents: [{ documentId: '1', name: 'A.pdf', documentBase64: pdf }], recipients: { signers: [{ recipientId: '1', name: 'S', email: 's@example.com', ...signer }] } }] }] });
  const layer = inline({ agentCanEditEmail: 'true' }).composites[0]?.layers[0];
  assert.equal(layer?.kind === 'inline' ? layer.recipients[0]?.agentCanEditEmail : undefined, true);
  // What an agent may change is set at create; updateRecipients refuses it by name.
  assert.equal(SIGNER_CORRECTION_FIELDS['agentCanEditEmail']?.rule, 'refused');
});
