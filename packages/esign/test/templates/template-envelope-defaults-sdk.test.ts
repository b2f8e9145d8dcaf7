import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test, type TestContext } from 'node:test';
import { buildConverter, type Converter } from '@signet/pdf';
import { sdkFailure } from '../support/sdk-failure.ts';
import { secondAccount } from '../support/second-account.ts';
import { b64, samplePdf, startSigningEsign, type SigningHarness } from '../signing/signing-harness.ts';

// The official SDK, unmodified (CommonJS, no typings): only what these tests call is typed.
type Json = Record<string, unknown>;
type Field = { fieldId?: string; name: string; value?: string; required?: string; show?: string; listItems?: string[] };
type Fields = { textCustomFields?: Field[]; listCustomFields?: Field[] };
type WireNotification = { useAccountDefaults: string; reminders: { reminderEnabled: string; reminderDelay: string; reminderFrequency: string }; expirations: { expireEnabled: string; expireAfter: string; expireWarn: string } };
type TemplateExtras = { customFields?: Fields; notification?: WireNotification; recipients?: unknown };
type TemplatesApi = {
  createTemplate(accountId: string, opts: { envelopeTemplate: unknown }): Promise<{ templateId: string }>;
  listTemplates(accountId: string, opts?: Json): Promise<{ totalSetSize: string; envelopeTemplates?: ({ templateId: string; name: string } & TemplateExtras)[] }>;
  get(accountId: string, templateId: string, opts?: { include?: string }): Promise<TemplateExtras>;
  update(accountId: string, templateId: string, opts: { envelopeTemplate: unknown }): Promise<unknown>;
  listCustomFields(accountId: string, templateId: string): Promise<Fields>;
  createCustomFields(accountId: string, templateId: string, opts: { templateCustomFields: unknown }): Promise<Fields>;
  updateCustomFields(accountId: string, templateId: string, opts: { templateCustomFields: unknown }): Promise<Fields>;
  deleteCustomFields(accountId: string, templateId: string, opts: { templateCustomFields: unknown }): Promise<Fields>;
  getNotificationSettings(accountId: string, templateId: string): Promise<WireNotification>;
  updateNotificationSettings(accountId: string, templateId: string, opts: { templateNotificationRequest: unknown }): Promise<WireNotification>;
};
type EnvelopesApi = {
  createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string }>;
  listCustomFields(accountId: string, envelopeId: string): Promise<Fields>;
  getNotificationSettings(accountId: string, envelopeId: string): Promise<WireNotification>;
};
type Sdk = {
  ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void };
  TemplatesApi: new (client: unknown) => TemplatesApi;
  EnvelopesApi: new (client: unknown) => EnvelopesApi;
};
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;
/** The SDK answers its model classes; compared as the JSON they came from. */
const plain = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

let converter: Converter;
before(async () => {
  converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
});
after(() => converter.close());

function apis(h: SigningHarness, token = h.token) {
  const client = new docusign.ApiClient();
  client.setBasePath(`${h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${token}`);
  return { templates: new docusign.TemplatesApi(client), envelopes: new docusign.EnvelopesApi(client) };
}

const names = (f: Fields) => [...(f.textCustomFields ?? []).map((x) => `text:${x.name}=${x.value ?? ''}`), ...(f.listCustomFields ?? []).map((x) => `list:${x.name}=${x.value ?? ''}`)];

async function template(name: string, extra: Json = {}) {
  return {
    name,
    documents: [{ documentId: '1', name: 'Lease.pdf', fileExtension: 'pdf', documentBase64: b64(await samplePdf(1)) }],
    recipients: { signers: [{ roleName: 'tenant', recipientId: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '500' }] } }] },
    ...extra,
  };
}

test('template custom fields and notification defaults: TemplatesApi calls, carried into envelopes made from the template, a copy', async (t: TestContext) => {
  const h = await startSigningEsign(t, { converter });
  const { templates, envelopes } = apis(h);
  const { templateId } = await templates.createTemplate(h.accountId, { envelopeTemplate: await template('Lease', {
    customFields: { textCustomFields: [{ name: 'Region', value: 'North', show: 'true' }], listCustomFields: [{ name: 'Tier', value: 'gold', listItems: ['gold', 'silver'], required: 'true' }] },
    notification: { reminders: { reminderEnabled: 'true', reminderDelay: '2', reminderFrequency: '3' }, expirations: { expireEnabled: 'true', expireAfter: '30', expireWarn: '5' } },
  }) });
  assert.deepEqual(names(await templates.listCustomFields(h.accountId, templateId)), ['text:Region=North', 'list:Tier=gold']);
  assert.deepEqual(plain(await templates.getNotificationSettings(h.accountId, templateId)), { useAccountDefaults: 'false', reminders: { reminderEnabled: 'true', reminderDelay: '2', reminderFrequency: '3' }, expirations: { expireEnabled: 'true', expireAfter: '30', expireWarn: '5' } });

  // The custom field calls, in the envelopes' own shapes.
  const added = await templates.createCustomFields(h.accountId, templateId, { templateCustomFields: { textCustomFields: [{ name: 'Cost centre', value: 'CC-1' }] } });
  assert.deepEqual(names(added), ['text:Cost centre=CC-1']);
  assert.deepEqual(names(await templates.updateCustomFields(h.accountId, templateId, { templateCustomFields: { textCustomFields: [{ name: 'Region', value: 'South' }] } })), ['text:Region=South']);
  assert.deepEqual(names(await templates.deleteCustomFields(h.accountId, templateId, { templateCustomFields: { textCustomFields: [{ fieldId: added.textCustomFields?.[0]?.fieldId ?? '' }] } })), ['text:Cost centre=CC-1']);
  assert.deepEqual(names(await templates.listCustomFields(h.accountId, templateId)), ['text:Region=South', 'list:Tier=gold']);
  assert.deepEqual(await sdkFailure(templates.updateCustomFields(h.accountId, templateId, { templateCustomFields: { listCustomFields: [{ name: 'Tier', value: 'bronze' }] } })), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(await sdkFailure(templates.createCustomFields(h.accountId, templateId, { templateCustomFields: { textCustomFields: [{ name: 'region', value: 'x' }] } })), [400, 'INVALID_REQUEST_BODY']);

  // Notification: what a request leaves out stays; a document password is refused by name.
  const notification = await templates.updateNotificationSettings(h.accountId, templateId, { templateNotificationRequest: { reminders: { reminderFrequency: '4' } } });
  assert.deepEqual(plain(notification.reminders), { reminderEnabled: 'true', reminderDelay: '2', reminderFrequency: '4' });
  assert.deepEqual(await sdkFailure(templates.updateNotificationSettings(h.accountId, templateId, { templateNotificationRequest: { password: 'secret' } })), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(await sdkFailure(templates.updateNotificationSettings(h.accountId, templateId, { templateNotificationRequest: { expirations: { expireAfter: '5', expireWarn: '5' } } })), [400, 'INVALID_REQUEST_PARAMETER']);
  // Envelopes::update-like changes through TemplatesApi.update point at these calls.
  assert.deepEqual(await sdkFailure(templates.update(h.accountId, templateId, { envelopeTemplate: { customFields: { textCustomFields: [{ name: 'x', value: 'y' }] } } })), [400, 'INVALID_REQUEST_BODY']);

  // An envelope from the template starts with them; its own fields of the same name win, its notification wins.
  const role = { roleName: 'tenant', name: 'Tina Tenant', email: 'tina@example.com' };
  const plainEnvelope = await envelopes.createEnvelope(h.accountId, { envelopeDefinition: { templateId, templateRoles: [role], status: 'sent' } });
  assert.deepEqual(names(await envelopes.listCustomFields(h.accountId, plainEnvelope.envelopeId)), ['text:Region=South', 'list:Tier=gold']);
  assert.deepEqual(plain(await envelopes.getNotificationSettings(h.accountId, plainEnvelope.envelopeId)), { useAccountDefaults: 'false', reminders: { reminderEnabled: 'true', reminderDelay: '2', reminderFrequency: '4' }, expirations: { expireEnabled: 'true', expireAfter: '30', expireWarn: '5' } });
  const own = await envelopes.createEnvelope(h.accountId, { envelopeDefinition: { templateId, templateRoles: [role], status: 'sent', customFields: { textCustomFields: [{ name: 'region', value: 'West' }, { name: 'Order', value: '42' }] }, notification: { useAccountDefaults: 'true' } } });
  assert.deepEqual(names(await envelopes.listCustomFields(h.accountId, own.envelopeId)), ['text:region=West', 'text:Order=42', 'list:Tier=gold']);
  assert.equal((await envelopes.getNotificationSettings(h.accountId, own.envelopeId)).reminders.reminderEnabled, 'false');
  // A required template field left without a value cannot be sent.
  await templates.updateCustomFields(h.accountId, templateId, { templateCustomFields: { listCustomFields: [{ name: 'Tier', value: '' }] } });
  assert.deepEqual(await sdkFailure(envelopes.createEnvelope(h.accountId, { envelopeDefinition: { templateId, templateRoles: [role], status: 'sent' } })), [400, 'ENVELOPE_IS_INCOMPLETE']);
  // The envelope is a copy: the template's later edits leave it as it was.
  await templates.deleteCustomFields(h.accountId, templateId, { templateCustomFields: { textCustomFields: [{ name: 'Region' }] } });
  assert.deepEqual(names(await envelopes.listCustomFields(h.accountId, plainEnvelope.envelopeId)), ['text:Region=South', 'list:Tier=gold']);

  // Another account's token never reads or changes them.
  const theirs = await secondAccount(h);
  const other = apis(h, theirs.token);
  assert.deepEqual(await sdkFailure(other.templates.listCustomFields(theirs.accountId, templateId)), [400, 'TEMPLATE_ID_INVALID']);
  assert.deepEqual(await sdkFailure(other.templates.createCustomFields(theirs.accountId, templateId, { templateCustomFields: { textCustomFields: [{ name: 'x', value: 'y' }] } })), [400, 'TEMPLATE_ID_INVALID']);
  assert.deepEqual(await sdkFailure(other.templates.getNotificationSettings(theirs.accountId, templateId)), [400, 'TEMPLATE_ID_INVALID']);
  assert.deepEqual(await sdkFailure(other.templates.updateNotificationSettings(theirs.accountId, templateId, { templateNotificationRequest: { reminders: { reminderEnabled: 'false' } } })), [400, 'TEMPLATE_ID_INVALID']);
  assert.deepEqual(names(await templates.listCustomFields(h.accountId, templateId)), ['list:Tier=']);
});

test('listTemplates: order_by and order, user_filter, template_ids; what templates here do not have is refused by name', async (t: TestContext) => {
  const h = await startSigningEsign(t, { converter });
  const { templates } = apis(h);
  const ids: Record<string, string> = {};
  for (const name of ['Beta', 'Alpha', 'Gamma']) ids[name] = (await templates.createTemplate(h.accountId, { envelopeTemplate: await template(name) })).templateId;
  // The harness's clock stands still; each template edit still moves lastModified on (by a
  // millisecond at least): Gamma once, Beta twice, so Beta is the last modified.
  const touch = (name: string) => templates.createCustomFields(h.accountId, ids[name] ?? '', { templateCustomFields: { textCustomFields: [{ name: `f${Math.random()}`, value: 'x' }] } });
  await touch('Gamma');
  await touch('Beta');
  await touch('Beta');
  const list = async (opts: Json) => (await templates.listTemplates(h.accountId, opts)).envelopeTemplates?.map((x) => x.name) ?? [];
  assert.deepEqual(await list({}), ['Alpha', 'Beta', 'Gamma']);
  assert.deepEqual(await list({ orderBy: 'name', order: 'desc' }), ['Gamma', 'Beta', 'Alpha']);
  assert.deepEqual(await list({ orderBy: 'modified', order: 'desc' }), ['Beta', 'Gamma', 'Alpha']);
  assert.deepEqual(await list({ orderBy: 'modified', order: 'desc', count: '1', startPosition: '1' }), ['Gamma']);
  assert.deepEqual(await list({ userFilter: 'owned_by_me' }), ['Alpha', 'Beta', 'Gamma']);
  assert.deepEqual(await list({ userFilter: 'shared_with_me' }), []);
  assert.deepEqual(await list({ userFilter: 'all', templateIds: `${ids.Gamma ?? ''},${ids.Alpha ?? ''}` }), ['Alpha', 'Gamma']);
  for (const opts of [{ folderIds: 'f-1' }, { orderBy: 'used' }, { order: 'sideways' }, { userFilter: 'everyone' }, { fromDate: '2020-01-01' }, { searchFields: 'recipients' }, { sharedByMe: 'true' }]) {
    assert.deepEqual(await sdkFailure(templates.listTemplates(h.accountId, opts)), [400, 'INVALID_REQUEST_PARAMETER'], JSON.stringify(opts));
  }
});

test('get and listTemplates answer custom fields and notification defaults when include asks for them; include=folders is refused by name', async (t: TestContext) => {
  const h = await startSigningEsign(t, { converter });
  const { templates } = apis(h);
  const { templateId } = await templates.createTemplate(h.accountId, { envelopeTemplate: await template('Included', {
    customFields: { textCustomFields: [{ name: 'Region', value: 'North' }] },
    notification: { useAccountDefaults: 'false', reminders: { reminderEnabled: 'true', reminderDelay: '1', reminderFrequency: '2' } },
  }) });
  const bare = plain(await templates.get(h.accountId, templateId));
  assert.equal(bare.customFields, undefined);
  assert.equal(bare.notification, undefined);
  const full = plain(await templates.get(h.accountId, templateId, { include: 'custom_fields,notifications,recipients' }));
  assert.deepEqual(names(full.customFields ?? {}), ['text:Region=North']);
  assert.equal(full.notification?.reminders.reminderFrequency, '2');
  assert.ok(full.recipients);
  const listed = (await templates.listTemplates(h.accountId, { include: 'custom_fields,notifications' })).envelopeTemplates?.find((x) => x.templateId === templateId);
  assert.deepEqual(names(plain(listed)?.customFields ?? {}), ['text:Region=North']);
  assert.equal(plain(listed)?.notification?.reminders.reminderDelay, '1');
  for (const include of ['folders', 'recipients,powerforms', 'favorite_template_status']) {
    assert.deepEqual(await sdkFailure(templates.get(h.accountId, templateId, { include })), [400, 'INVALID_REQUEST_PARAMETER'], include);
    assert.deepEqual(await sdkFailure(templates.listTemplates(h.accountId, { include })), [400, 'INVALID_REQUEST_PARAMETER'], include);
  }
});
