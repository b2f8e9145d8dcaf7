import type { FastifyInstance } from 'fastify';
import { PASSWORD_MAX, PASSWORD_MIN } from '../domain/password-policy.ts';
import { EsignError } from '../errors.ts';
import { NOT_SUPPORTED_ENVELOPE_OPERATIONS } from './not-supported-envelope-operations.ts';
import { ACCOUNT, op, type NotSupportedOperation } from './not-supported-operation.ts';
import { NOT_SUPPORTED_OTHER_OPERATIONS } from './not-supported-other-operations.ts';
import { NOT_SUPPORTED_TEMPLATE_OPERATIONS } from './not-supported-template-operations.ts';

export type { NotSupportedOperation } from './not-supported-operation.ts';

const USER = `${ACCOUNT}/users/:userId`;

const ACCOUNT_STAMPS = 'account signatures and stamps are not supported; a signer adopts a signature on the signing page (docs/esign-signing.md)';
const USER_SIGNATURES = 'saved user signatures and initials are not supported; a signer adopts a signature on the signing page (docs/esign-signing.md)';
const CONTACTS = 'address book contacts are not supported';
const SHARED_FOLDERS = 'sharing single folders or envelopes is not supported; a user shares their envelopes with user authorizations (docs/esign-shared-access.md)';
const PASSWORD_RULES = `password rules are not configurable: every password has ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`;

/**
 * The account-level operations of the SDK (AccountsApi, UsersApi; docs/esign-account-operations.md)
 * that this service does not do. Each answers DocuSign's error shape naming the operation, so an
 * integrator reads what is missing instead of the answer an unknown URL gets; the SDK walk in
 * test/compat/sdk-route-coverage.test.ts keeps the tables and the SDK's operations in step.
 */
export const NOT_SUPPORTED_ACCOUNT_OPERATIONS: readonly NotSupportedOperation[] = [
  op('AccountsApi.create', 'POST', '/restapi/v2.1/accounts', 'accounts are created by signing up in the console or with `signet-esign user create`'),
  op('AccountsApi._delete', 'DELETE', ACCOUNT, 'closing an account through the API is not supported'),
  op('AccountsApi.getProvisioning', 'GET', '/restapi/v2.1/accounts/provisioning', 'distributor provisioning is not supported'),
  op('AccountsApi.getAccountSignatures', 'GET', `${ACCOUNT}/signatures`, ACCOUNT_STAMPS),
  op('AccountsApi.createAccountSignatures', 'POST', `${ACCOUNT}/signatures`, ACCOUNT_STAMPS),
  op('AccountsApi.updateAccountSignature', 'PUT', `${ACCOUNT}/signatures`, ACCOUNT_STAMPS),
  op('AccountsApi.getAccountSignature', 'GET', `${ACCOUNT}/signatures/:signatureId`, ACCOUNT_STAMPS),
  op('AccountsApi.updateAccountSignatureById', 'PUT', `${ACCOUNT}/signatures/:signatureId`, ACCOUNT_STAMPS),
  op('AccountsApi.deleteAccountSignature', 'DELETE', `${ACCOUNT}/signatures/:signatureId`, ACCOUNT_STAMPS),
  op('AccountsApi.getAccountSignatureImage', 'GET', `${ACCOUNT}/signatures/:signatureId/:imageType`, ACCOUNT_STAMPS),
  op('AccountsApi.updateAccountSignatureImage', 'PUT', `${ACCOUNT}/signatures/:signatureId/:imageType`, ACCOUNT_STAMPS),
  op('AccountsApi.deleteAccountSignatureImage', 'DELETE', `${ACCOUNT}/signatures/:signatureId/:imageType`, ACCOUNT_STAMPS),
  op('AccountsApi.deleteCaptiveRecipient', 'DELETE', `${ACCOUNT}/captive_recipients/:recipientPart`, 'embedded recipients keep no signature between envelopes here, so there is none to delete'),
  op('AccountsApi.getAccountTabSettings', 'GET', `${ACCOUNT}/settings/tabs`, 'account tab settings are not supported; every tab type of docs/esign-tabs.md is always enabled'),
  op('AccountsApi.updateAccountTabSettings', 'PUT', `${ACCOUNT}/settings/tabs`, 'account tab settings are not supported; every tab type of docs/esign-tabs.md is always enabled'),
  op('AccountsApi.getENoteConfiguration', 'GET', `${ACCOUNT}/settings/enote_configuration`, 'eNote configuration is not supported'),
  op('AccountsApi.updateENoteConfiguration', 'PUT', `${ACCOUNT}/settings/enote_configuration`, 'eNote configuration is not supported'),
  op('AccountsApi.deleteENoteConfiguration', 'DELETE', `${ACCOUNT}/settings/enote_configuration`, 'eNote configuration is not supported'),
  op('AccountsApi.getEnvelopePurgeConfiguration', 'GET', `${ACCOUNT}/settings/envelope_purge_configuration`, 'purging envelopes\' documents is not supported'),
  op('AccountsApi.updateEnvelopePurgeConfiguration', 'PUT', `${ACCOUNT}/settings/envelope_purge_configuration`, 'purging envelopes\' documents is not supported'),
  op('AccountsApi.getNotificationDefaults', 'GET', `${ACCOUNT}/settings/notification_defaults`, 'account notification defaults are not supported; each envelope\'s reminders and expiry come with its notification (docs/esign-reminders.md)'),
  op('AccountsApi.updateNotificationDefaults', 'PUT', `${ACCOUNT}/settings/notification_defaults`, 'account notification defaults are not supported; each envelope\'s reminders and expiry come with its notification (docs/esign-reminders.md)'),
  op('AccountsApi.getPasswordRules', 'GET', `${ACCOUNT}/settings/password_rules`, PASSWORD_RULES),
  op('AccountsApi.updatePasswordRules', 'PUT', `${ACCOUNT}/settings/password_rules`, PASSWORD_RULES),
  op('AccountsApi.getPasswordRules_0', 'GET', '/restapi/v2.1/current_user/password_rules', PASSWORD_RULES),
  op('AccountsApi.getAllPaymentGatewayAccounts', 'GET', `${ACCOUNT}/payment_gateway_accounts`, 'payments are not supported'),
  op('AccountsApi.getBillingCharges', 'GET', `${ACCOUNT}/billing_charges`, 'billing is not supported'),
  op('AccountsApi.getConsumerDisclosureDefault', 'GET', `${ACCOUNT}/consumer_disclosure`, 'the consumer disclosure (ERSD) is not supported'),
  op('AccountsApi.getConsumerDisclosure', 'GET', `${ACCOUNT}/consumer_disclosure/:langCode`, 'the consumer disclosure (ERSD) is not supported'),
  op('AccountsApi.updateConsumerDisclosure', 'PUT', `${ACCOUNT}/consumer_disclosure/:langCode`, 'the consumer disclosure (ERSD) is not supported'),
  op('AccountsApi.getFavoriteTemplates', 'GET', `${ACCOUNT}/favorite_templates`, 'favorite templates are not supported'),
  op('AccountsApi.updateFavoriteTemplate', 'PUT', `${ACCOUNT}/favorite_templates`, 'favorite templates are not supported'),
  op('AccountsApi.unFavoriteTemplate', 'DELETE', `${ACCOUNT}/favorite_templates`, 'favorite templates are not supported'),
  op('AccountsApi.getWatermark', 'GET', `${ACCOUNT}/watermark`, 'watermarks are not supported'),
  op('AccountsApi.updateWatermark', 'PUT', `${ACCOUNT}/watermark`, 'watermarks are not supported'),
  op('AccountsApi.listSharedAccess', 'GET', `${ACCOUNT}/shared_access`, SHARED_FOLDERS),
  op('AccountsApi.updateSharedAccess', 'PUT', `${ACCOUNT}/shared_access`, SHARED_FOLDERS),
  op('AccountsApi.getWatermarkPreview', 'PUT', `${ACCOUNT}/watermark/preview`, 'watermarks are not supported'),
  op('AccountsApi.listSignatureProviders', 'GET', `${ACCOUNT}/signatureProviders`, 'standards-based signature providers are not supported; completed documents carry this service\'s PAdES seal (docs/esign-signing.md)'),
  op('AccountsApi.listUnsupportedFileTypes', 'GET', `${ACCOUNT}/unsupported_file_types`, 'the list is not published; a document that cannot be converted is refused with FORMAT_CONVERSION_ERROR (docs/esign-envelopes.md)'),
  op('UsersApi.listSignatures', 'GET', `${USER}/signatures`, USER_SIGNATURES),
  op('UsersApi.createSignatures', 'POST', `${USER}/signatures`, USER_SIGNATURES),
  op('UsersApi.updateSignatures', 'PUT', `${USER}/signatures`, USER_SIGNATURES),
  op('UsersApi.getSignature', 'GET', `${USER}/signatures/:signatureId`, USER_SIGNATURES),
  op('UsersApi.updateSignature', 'PUT', `${USER}/signatures/:signatureId`, USER_SIGNATURES),
  op('UsersApi.deleteSignature', 'DELETE', `${USER}/signatures/:signatureId`, USER_SIGNATURES),
  op('UsersApi.getSignatureImage', 'GET', `${USER}/signatures/:signatureId/:imageType`, USER_SIGNATURES),
  op('UsersApi.updateSignatureImage', 'PUT', `${USER}/signatures/:signatureId/:imageType`, USER_SIGNATURES),
  op('UsersApi.deleteSignatureImage', 'DELETE', `${USER}/signatures/:signatureId/:imageType`, USER_SIGNATURES),
  op('UsersApi.getProfileImage', 'GET', `${USER}/profile/image`, 'profile images are not supported'),
  op('UsersApi.updateProfileImage', 'PUT', `${USER}/profile/image`, 'profile images are not supported'),
  op('UsersApi.deleteProfileImage', 'DELETE', `${USER}/profile/image`, 'profile images are not supported'),
  op('UsersApi.updateSettings', 'PUT', `${USER}/settings`, 'a user\'s settings are what their permission profile allows: change the profile (AccountsApi.updatePermissionProfile) or the user\'s permissionProfileId (UsersApi.updateUser)'),
  op('UsersApi.listCustomSettings', 'GET', `${USER}/custom_settings`, 'custom user settings are not supported'),
  op('UsersApi.updateCustomSettings', 'PUT', `${USER}/custom_settings`, 'custom user settings are not supported'),
  op('UsersApi.deleteCustomSettings', 'DELETE', `${USER}/custom_settings`, 'custom user settings are not supported'),
  op('UsersApi.postContacts', 'POST', `${ACCOUNT}/contacts`, CONTACTS),
  op('UsersApi.putContacts', 'PUT', `${ACCOUNT}/contacts`, CONTACTS),
  op('UsersApi.deleteContacts', 'DELETE', `${ACCOUNT}/contacts`, CONTACTS),
  op('UsersApi.getContactById', 'GET', `${ACCOUNT}/contacts/:contactId`, CONTACTS),
  op('UsersApi.deleteContactWithId', 'DELETE', `${ACCOUNT}/contacts/:contactId`, CONTACTS),
];

/**
 * Every SDK operation refused by name: the account-level ones above, those of EnvelopesApi and
 * TemplatesApi (not-supported-envelope-operations.ts, not-supported-template-operations.ts;
 * docs/esign-envelope-operations.md), and those of the SDK's other apis
 * (not-supported-other-operations.ts; docs/esign-other-operations.md).
 */
export const NOT_SUPPORTED_OPERATIONS: readonly NotSupportedOperation[] = [
  ...NOT_SUPPORTED_ACCOUNT_OPERATIONS,
  ...NOT_SUPPORTED_ENVELOPE_OPERATIONS,
  ...NOT_SUPPORTED_TEMPLATE_OPERATIONS,
  ...NOT_SUPPORTED_OTHER_OPERATIONS,
];

/**
 * Registers each operation of the tables as a route that refuses it by name. They sit behind the
 * API guard like every /restapi route, so a stranger learns nothing more than from a built one
 * (or, outside an account, than from the unknown-URL answer: a valid token comes first).
 */
export function registerNotSupportedOperations(app: FastifyInstance, operations: readonly NotSupportedOperation[] = NOT_SUPPORTED_OPERATIONS): void {
  for (const { operation, method, url, why } of operations) {
    app.route({ method, url, handler: () => {
      throw new EsignError('INVALID_REQUEST_PARAMETER', `${operation} is not supported: ${why}.`);
    } });
  }
}
