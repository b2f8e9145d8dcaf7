import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { deniedBecause, routeNeed, type Need } from '../../src/domain/users/route-permission.ts';
import { DEFAULT_PROFILES, ENFORCED_SETTINGS, REFUSED_SETTINGS, rightsOf, STORED_SETTINGS } from '../../src/domain/users/role-settings.ts';
import { EsignError } from '../../src/errors.ts';
import { parseRoleSettings } from '../../src/wire/parse-role-settings.ts';
import { WireReader } from '../../src/wire/wire-reader.ts';

const ME = 'u-1';
const need = (method: string, route: string, userId?: string): Need => routeNeed({ method, route, userId, actorId: ME });

test('routeNeed: each /restapi route needs the setting of its area', () => {
  const table: [string, string, string | undefined, Need][] = [
    ['GET', '', undefined, 'none'],
    ['GET', '/envelopes', undefined, 'none'],
    ['POST', '/envelopes', undefined, 'send'],
    ['PUT', '/envelopes/:envelopeId', undefined, 'send'],
    ['PUT', '/envelopes/status', undefined, 'none'],
    ['POST', '/envelopes/:envelopeId/views/recipient', undefined, 'send'],
    ['PUT', '/folders/:folderId', undefined, 'send'],
    ['POST', '/chunked_uploads', undefined, 'send'],
    ['GET', '/chunked_uploads/:chunkedUploadId', undefined, 'none'],
    ['POST', '/bulk_process_data/actions/:processAction', undefined, 'send'],
    ['PUT', '/tab_definitions/:customTabId', undefined, 'send'],
    ['DELETE', '/powerforms/:powerFormId', undefined, 'send'],
    ['GET', '/powerforms', undefined, 'none'],
    ['PUT', '/signing_groups', undefined, 'manageAccount'],
    ['POST', '/settings/bcc_email_archives', undefined, 'manageAccount'],
    ['GET', '/templates', undefined, 'useTemplates'],
    ['POST', '/templates', undefined, 'editTemplates'],
    ['DELETE', '/templates/:templateId/recipients', undefined, 'editTemplates'],
    ['PUT', '/settings', undefined, 'manageAccount'],
    ['GET', '/settings', undefined, 'none'],
    ['POST', '/brands', undefined, 'manageAccount'],
    ['POST', '/permission_profiles', undefined, 'manageAccount'],
    ['GET', '/permission_profiles', undefined, 'none'],
    ['PUT', '/groups', undefined, 'manageAccount'],
    ['GET', '/users', undefined, 'manageAccount'],
    ['GET', '/users/:userId', ME, 'none'],
    ['PUT', '/users/:userId', ME, 'none'],
    ['GET', '/users/:userId', 'u-2', 'manageAccount'],
    ['PUT', '/users/:userId', 'u-2', 'manageAccount'],
    ['DELETE', '/users', undefined, 'manageAccount'],
    ['PUT', '/users', undefined, 'manageAccount'],
    ['GET', '/users/:userId/profile', ME, 'none'],
    ['PUT', '/users/:userId/profile', ME, 'none'],
    ['GET', '/users/:userId/settings', ME, 'none'],
    ['GET', '/users/:userId/profile', 'u-2', 'manageAccount'],
    ['PUT', '/users/:userId/profile', 'u-2', 'manageAccount'],
    ['GET', '/users/:userId/settings', 'u-2', 'manageAccount'],
    ['DELETE', '/users/:userId/profile/image', ME, 'manageAccount'],
    ['PUT', '/users/:userId/signatures', ME, 'manageAccount'],
    ['GET', '/connect', undefined, 'manageAccount'],
    // A write route nobody placed in the table is closed to all but account managers.
    ['POST', '/something_new', undefined, 'manageAccount'],
    ['GET', '/something_new', undefined, 'none'],
  ];
  for (const [method, route, userId, expected] of table) assert.equal(need(method, route, userId), expected, `${method} ${route}`);
});

test('deniedBecause: each enforced setting denies its routes, and no API access denies all', () => {
  const all = rightsOf(DEFAULT_PROFILES.admin.settings);
  for (const n of ['send', 'useTemplates', 'editTemplates', 'manageAccount', 'none'] as const) assert.equal(deniedBecause(all, n), undefined);
  assert.match(deniedBecause({ ...all, send: false }, 'send') ?? '', /allowEnvelopeSending/);
  assert.match(deniedBecause({ ...all, templates: 'none' }, 'useTemplates') ?? '', /allowedTemplateAccess/);
  assert.equal(deniedBecause({ ...all, templates: 'use' }, 'useTemplates'), undefined);
  assert.match(deniedBecause({ ...all, templates: 'use' }, 'editTemplates') ?? '', /allowedTemplateAccess/);
  assert.match(deniedBecause({ ...all, manageAccount: false }, 'manageAccount') ?? '', /allowAccountManagement/);
  assert.match(deniedBecause({ ...all, api: false }, 'none') ?? '', /allowApiAccess/);
  // Unset enforced settings read as denied: a profile grants only what it says.
  assert.deepEqual(rightsOf({}), { send: false, templates: 'none', manageAccount: false, api: false, allEnvelopes: false });
  assert.deepEqual(rightsOf(DEFAULT_PROFILES.viewer.settings), { send: false, templates: 'none', manageAccount: false, api: false, allEnvelopes: false });
  assert.deepEqual(rightsOf(DEFAULT_PROFILES.sender.settings), { send: true, templates: 'edit', manageAccount: false, api: true, allEnvelopes: false });
  // The account's envelopes: the administrator's by account management, anyone's by allowApiAccessToAccount.
  assert.equal(rightsOf(DEFAULT_PROFILES.admin.settings).allEnvelopes, true);
  assert.equal(rightsOf({ ...DEFAULT_PROFILES.sender.settings, allowApiAccessToAccount: 'true' }).allEnvelopes, true);
});

const parse = (settings: Record<string, unknown>) => parseRoleSettings(new WireReader('settings', settings));
const refusal = (settings: Record<string, unknown>): string => {
  try {
    parse(settings);
  } catch (err) {
    assert.ok(err instanceof EsignError);
    assert.equal(err.code, 'INVALID_REQUEST_BODY');
    return err.message;
  }
  return assert.fail('expected a refusal');
};

test('parseRoleSettings: enforced values checked, the rest stored as text, everything else refused by name at once', () => {
  assert.deepEqual(parse({ allowEnvelopeSending: 'TRUE', allowedTemplateAccess: 'use', useNewDocuSignExperienceInterface: 0, allowBulkSending: true, signingUiVersion: 'v2', vaultingMode: null }),
    { allowEnvelopeSending: 'true', allowedTemplateAccess: 'use', useNewDocuSignExperienceInterface: '0', allowBulkSending: 'true', signingUiVersion: 'v2' });
  // Names match case-insensitively and are stored as the model spells them.
  assert.deepEqual(parse({ ALLOWAPIACCESS: 'false' }), { allowApiAccess: 'false' });
  assert.match(refusal({ allowEnvelopeSending: 'sometimes' }), /allowEnvelopeSending must be one of true, false/);
  assert.match(refusal({ allowedTemplateAccess: 'all' }), /none, use, create, share/);
  const message = refusal({ accountManagementGranular: { allowManageUsers: 'true' }, allowApiAccessMetadata: { rights: 'editable' }, makeCoffee: 'true' });
  assert.match(message, /accountManagementGranular \(granular/);
  assert.match(message, /allowApiAccessMetadata \(the …Metadata/);
  assert.match(message, /makeCoffee \(not a setting/);
});

test('every property of the SDK\'s AccountRoleSettings is enforced, stored or refused by name', () => {
  const sdk = createRequire(import.meta.url)('docusign-esign') as { AccountRoleSettings: { prototype: object } };
  const known = new Set([...Object.keys(ENFORCED_SETTINGS), ...STORED_SETTINGS, ...Object.keys(REFUSED_SETTINGS)]);
  for (const name of Object.keys(sdk.AccountRoleSettings.prototype)) {
    if (name.endsWith('Metadata')) {
      assert.match(refusal({ [name]: { rights: 'editable' } }), new RegExp(name));
      continue;
    }
    assert.ok(known.has(name), `${name} is neither enforced, stored nor refused`);
  }
});
