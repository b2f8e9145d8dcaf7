import { ACCOUNT, op, type NotSupportedOperation } from './not-supported-operation.ts';

/** The SDK's paths outside an account (diagnostics, billing plans, notary, sign hash, organizations). */
const V21 = '/restapi/v2.1';
const USER = `${ACCOUNT}/users/:userId`;
const CONNECT = `${ACCOUNT}/connect`;
const BULK_PROCESS = `${ACCOUNT}/bulk_process_data/actions/:processAction`;
const CLOUD_STORAGE = `${USER}/cloud_storage`;
const NOTARY = `${V21}/current_user/notary`;
const JURISDICTION = `${NOTARY}/jurisdictions/:jurisdictionId`;
const POWERFORMS = `${ACCOUNT}/powerforms`;
const SIGNING_GROUPS = `${ACCOUNT}/signing_groups`;
const WORKSPACE = `${ACCOUNT}/workspaces/:workspaceId`;
const WORKSPACE_FOLDER = `${WORKSPACE}/folders/:folderId`;
const BCC_ARCHIVES = `${ACCOUNT}/settings/bcc_email_archives`;

// Each reason says what the operation would do, why it is not offered, and where the docs show
// what is offered instead; the message reads `<Api>.<name> is not supported: <reason>.`
const SOCIAL_LOGINS = 'social logins (signing in with a Google, Facebook or other outside account) are not offered here: a user signs in to the console with their e-mail address and password, and an app gets its tokens with OAuth (docs/esign-oauth.md, "Accounts, users, apps")';
const BILLING = 'billing (plans, invoices, payments, purchased envelopes) is not offered here: this service charges nothing, and what bounds an account\'s sending is the deployment\'s send allowance (docs/esign-envelopes.md, "The send allowance")';
const BULK_PROCESS_LISTS = 'bulk process lists (a list of envelopes with new data, queued to update those envelopes) are not offered here; bulk sending from a list is: BulkEnvelopesApi\'s bulk send lists and createBulkSendRequest (docs/esign-bulk-send.md)';
const CLOUD_STORAGE_PROVIDERS = 'cloud storage providers (documents picked from a user\'s Box, Dropbox, Google Drive or OneDrive) are not offered here: a document comes with the request that adds it, as documentBase64 or a multipart part (docs/esign-envelopes.md, "Documents")';
const CONNECT_OAUTH = 'Connect OAuth (a token from the integrator\'s authorization server sent with each message) is not offered here; a listener checks each message by its HMAC signatures (docs/esign-connect.md, "HMAC")';
const CONNECT_SECRETS = 'Connect HMAC keys are not managed through the API here: they are added and revoked on the console\'s Connect page, which shows a new secret once (docs/esign-connect.md, "HMAC")';
const CONNECT_LOGS = 'the Connect request log (each message posted, kept while a configuration enables logging) is not offered here; deliveries that fail are in the failure log: listEventFailureLogs, deleteEventFailureLog (docs/esign-connect.md, "Delivery, retries, failures")';
const MOBILE_NOTIFIERS = 'mobile push notifiers are not offered here: Connect posts its messages to listener URLs only (docs/esign-connect.md, "Subscribing")';
const CONNECT_USERS = 'the users a configuration may cover are not listed here: a configuration covers every sender of the account (allUsers) or the userIds it names, which getConfiguration answers, and UsersApi.list lists the account\'s members (docs/esign-connect.md, "Subscribing")';
const CUSTOM_TABS = 'custom tabs (tab definitions saved in the account, to be placed again later) are not offered here: each tab is defined in full where it is placed, on a recipient of an envelope or a role of a template (docs/esign-tabs.md)';
const REQUEST_LOGS = 'API request logging (the caller\'s recent requests and responses, kept for download) is not offered here; each request is a line of the service\'s own log, which its operators find by the X-Correlation-ID the gateway answers with (docs/operations.md, "2. Logs")';
const BCC_EMAIL_ARCHIVES = 'BCC e-mail archiving (a copy of every mail the account sends, to an archive address) is not offered here: each mail goes to its recipient only (docs/esign-envelopes.md, "Mail: the transactional outbox")';
const NOTARIZATION = 'electronic notarization is not offered here, so there is no notary to register and no jurisdiction, seal or journal: notary recipients and notary hosts are refused when an envelope is created (docs/esign-envelope-fields.md)';
const POWERFORM = 'PowerForms (a link anyone may open to sign an envelope made from a template) are not offered here; an integration creates the envelope from the template (createEnvelope with templateId and templateRoles) and opens a recipient view for its signer (docs/esign-templates.md, docs/esign-signing.md, "REST")';
const SIGN_HASH = 'the sign-hash flow (a trust service provider signing a document\'s digest outside this service) is not offered here: documents are signed on the signing page and sealed by this service at completion (docs/esign-signing.md, "Completion")';
const SIGNING_GROUP = 'signing groups (several people, any one of whom signs for the group) are not offered here: a recipient is one person, and signingGroupId is refused when an envelope is created (docs/esign-envelope-fields.md)';
const WORKSPACES = 'workspaces (folders of files shared among the people of a transaction) are not offered here; a document belongs to an envelope or a template (docs/esign-envelopes.md, "Documents")';

/**
 * The operations of the SDK's other apis (docusign-esign src/api/<Api>.js: all but AccountsApi,
 * UsersApi, GroupsApi, BulkEnvelopesApi, EnvelopesApi and TemplatesApi) that this service does
 * not do, each refused by name (docs/esign-other-operations.md). Some paths are outside an
 * account (`/diagnostics`, `/billing_plans`, `/current_user/notary`, `/signature`,
 * `/organization_reporting`, `/login_information`, `/v2.1` and `/service_information` themselves):
 * the API guard asks a valid token of them, as of any /restapi path, and nothing more, since there
 * is no account to be a member of. ConnectApi's fixed words (`oauth`, `secret`, `logs`,
 * `mobile_notifiers`) take precedence over the served `/connect/:connectId`, so they no longer
 * read as an unknown configuration id. AuthenticationApi's getOAuthToken and revokeOAuthToken are
 * OAuth, not REST, calls: the OAuth server answers them (docs/esign-oauth.md).
 */
export const NOT_SUPPORTED_OTHER_OPERATIONS: readonly NotSupportedOperation[] = [
  op('AuthenticationApi.login', 'GET', `${V21}/login_information`, 'the legacy login information call (a user\'s accounts and their base URLs, after a password login) is not offered here; OAuth\'s userinfo answers the same for a token: ApiClient.getUserInfo, GET /oauth/userinfo (docs/esign-oauth.md, "GET /oauth/userinfo")'),
  op('AuthenticationApi.updatePassword', 'PUT', `${V21}/login_information/:loginPart`, 'changing a password or its security questions through the API is not offered here: a user chooses a password when signing up or on an invitation\'s page (docs/esign-oauth.md, "Accounts, users, apps"; docs/esign-users.md, "Users")'),
  op('AuthenticationApi.listSocialLogins', 'GET', `${USER}/social`, SOCIAL_LOGINS),
  op('AuthenticationApi.updateSocialLogin', 'PUT', `${USER}/social`, SOCIAL_LOGINS),
  op('AuthenticationApi.deleteSocialLogin', 'DELETE', `${USER}/social`, SOCIAL_LOGINS),

  op('BillingApi.listBillingPlans', 'GET', `${V21}/billing_plans`, BILLING),
  op('BillingApi.getBillingPlan', 'GET', `${V21}/billing_plans/:billingPlanId`, BILLING),
  op('BillingApi.getPlan', 'GET', `${ACCOUNT}/billing_plan`, BILLING),
  op('BillingApi.updatePlan', 'PUT', `${ACCOUNT}/billing_plan`, BILLING),
  op('BillingApi.getCreditCardInfo', 'GET', `${ACCOUNT}/billing_plan/credit_card`, BILLING),
  op('BillingApi.getDowngradeRequestBillingInfo', 'GET', `${ACCOUNT}/billing_plan/downgrade`, BILLING),
  op('BillingApi.updateDowngradeAccountBillingPlan', 'PUT', `${ACCOUNT}/billing_plan/downgrade`, BILLING),
  op('BillingApi.purchaseEnvelopes', 'PUT', `${ACCOUNT}/billing_plan/purchased_envelopes`, BILLING),
  op('BillingApi.listInvoices', 'GET', `${ACCOUNT}/billing_invoices`, BILLING),
  op('BillingApi.getInvoice', 'GET', `${ACCOUNT}/billing_invoices/:invoiceId`, BILLING),
  op('BillingApi.listInvoicesPastDue', 'GET', `${ACCOUNT}/billing_invoices_past_due`, BILLING),
  op('BillingApi.listPayments', 'GET', `${ACCOUNT}/billing_payments`, BILLING),
  op('BillingApi.makePayment', 'POST', `${ACCOUNT}/billing_payments`, BILLING),
  op('BillingApi.getPayment', 'GET', `${ACCOUNT}/billing_payments/:paymentId`, BILLING),

  op('BulkProcessDataApi.getBulkProcessLists', 'GET', BULK_PROCESS, BULK_PROCESS_LISTS),
  op('BulkProcessDataApi.createBulkProcessRequest', 'POST', BULK_PROCESS, BULK_PROCESS_LISTS),
  op('BulkProcessDataApi.deleteBulkProcessLists', 'DELETE', BULK_PROCESS, BULK_PROCESS_LISTS),
  op('BulkProcessDataApi.getBulkProcessList', 'GET', `${BULK_PROCESS}/:bulkProcessListId`, BULK_PROCESS_LISTS),
  op('BulkProcessDataApi.createBulkProcessRequestToQueue', 'POST', `${BULK_PROCESS}/:bulkProcessListId`, BULK_PROCESS_LISTS),
  op('BulkProcessDataApi.updateBulkProcessList', 'PUT', `${BULK_PROCESS}/:bulkProcessListId`, BULK_PROCESS_LISTS),
  op('BulkProcessDataApi.deleteBulkProcessList', 'DELETE', `${BULK_PROCESS}/:bulkProcessListId`, BULK_PROCESS_LISTS),
  op('BulkProcessDataSendApi.getBulkProcessList', 'GET', `${BULK_PROCESS}/:bulkProcessListId/send`, BULK_PROCESS_LISTS),
  op('BulkProcessDataSendApi.createBulkProcessRequestToQueue', 'POST', `${BULK_PROCESS}/:bulkProcessListId/send`, BULK_PROCESS_LISTS),
  op('BulkProcessDataSendApi.updateBulkProcessList', 'PUT', `${BULK_PROCESS}/:bulkProcessListId/send`, BULK_PROCESS_LISTS),
  op('BulkProcessDataSendApi.deleteBulkProcessList', 'DELETE', `${BULK_PROCESS}/:bulkProcessListId/send`, BULK_PROCESS_LISTS),

  op('CloudStorageApi.listProviders', 'GET', CLOUD_STORAGE, CLOUD_STORAGE_PROVIDERS),
  op('CloudStorageApi.createProvider', 'POST', CLOUD_STORAGE, CLOUD_STORAGE_PROVIDERS),
  op('CloudStorageApi.deleteProviders', 'DELETE', CLOUD_STORAGE, CLOUD_STORAGE_PROVIDERS),
  op('CloudStorageApi.getProvider', 'GET', `${CLOUD_STORAGE}/:serviceId`, CLOUD_STORAGE_PROVIDERS),
  op('CloudStorageApi.deleteProvider', 'DELETE', `${CLOUD_STORAGE}/:serviceId`, CLOUD_STORAGE_PROVIDERS),
  op('CloudStorageApi.listFolders', 'GET', `${CLOUD_STORAGE}/:serviceId/folders`, CLOUD_STORAGE_PROVIDERS),
  op('CloudStorageApi.list', 'GET', `${CLOUD_STORAGE}/:serviceId/folders/:folderId`, CLOUD_STORAGE_PROVIDERS),

  op('ConnectApi.getConnectOAuthConfig', 'GET', `${CONNECT}/oauth`, CONNECT_OAUTH),
  op('ConnectApi.createConnectOAuthConfig', 'POST', `${CONNECT}/oauth`, CONNECT_OAUTH),
  op('ConnectApi.updateConnectOAuthConfig', 'PUT', `${CONNECT}/oauth`, CONNECT_OAUTH),
  op('ConnectApi.deleteConnectOAuthConfig', 'DELETE', `${CONNECT}/oauth`, CONNECT_OAUTH),
  op('ConnectApi.getConnectSecret', 'GET', `${CONNECT}/secret`, CONNECT_SECRETS),
  op('ConnectApi.createConnectSecret', 'POST', `${CONNECT}/secret`, CONNECT_SECRETS),
  op('ConnectApi.deleteConnectSecret', 'DELETE', `${CONNECT}/secret/:keyId`, CONNECT_SECRETS),
  op('ConnectApi.listEventLogs', 'GET', `${CONNECT}/logs`, CONNECT_LOGS),
  op('ConnectApi.deleteEventLogs', 'DELETE', `${CONNECT}/logs`, CONNECT_LOGS),
  op('ConnectApi.getEventLog', 'GET', `${CONNECT}/logs/:logId`, CONNECT_LOGS),
  op('ConnectApi.deleteEventLog', 'DELETE', `${CONNECT}/logs/:logId`, CONNECT_LOGS),
  op('ConnectApi.listMobileNotifiers', 'GET', `${CONNECT}/mobile_notifiers`, MOBILE_NOTIFIERS),
  op('ConnectApi.updateMobileNotifiers', 'PUT', `${CONNECT}/mobile_notifiers`, MOBILE_NOTIFIERS),
  op('ConnectApi.deleteMobileNotifiers', 'DELETE', `${CONNECT}/mobile_notifiers`, MOBILE_NOTIFIERS),
  op('ConnectApi.listUsers', 'GET', `${CONNECT}/:connectId/users`, CONNECT_USERS),
  op('ConnectApi.getConnectAllUsers', 'GET', `${CONNECT}/:connectId/all/users`, CONNECT_USERS),

  op('CustomTabsApi.list', 'GET', `${ACCOUNT}/tab_definitions`, CUSTOM_TABS),
  op('CustomTabsApi.create', 'POST', `${ACCOUNT}/tab_definitions`, CUSTOM_TABS),
  op('CustomTabsApi.get', 'GET', `${ACCOUNT}/tab_definitions/:customTabId`, CUSTOM_TABS),
  op('CustomTabsApi.update', 'PUT', `${ACCOUNT}/tab_definitions/:customTabId`, CUSTOM_TABS),
  op('CustomTabsApi._delete', 'DELETE', `${ACCOUNT}/tab_definitions/:customTabId`, CUSTOM_TABS),

  op('DataFeedApi.getDataFeedElement', 'GET', `${ACCOUNT}/data_feeds/data/:dataFeedElementId`, 'data feed elements (records of DocuSign\'s reporting data feed) are not offered here; listStatusChanges lists an account\'s envelopes, and Connect posts their changes as they happen (docs/esign-envelopes.md, "Routes"; docs/esign-connect.md)'),

  op('DiagnosticsApi.getService', 'GET', '/restapi/service_information', 'service information (the REST versions and builds a DocuSign site serves) is not offered as a call: this service serves REST v2.1 alone, under /restapi/v2.1 (docs/esign-other-operations.md)'),
  op('DiagnosticsApi.getResources', 'GET', V21, 'the list of REST resources is not offered as a call: docs/esign-account-operations.md, docs/esign-envelope-operations.md and docs/esign-other-operations.md list every operation of the SDK with what it does here'),
  op('DiagnosticsApi.listRequestLogs', 'GET', `${V21}/diagnostics/request_logs`, REQUEST_LOGS),
  op('DiagnosticsApi.deleteRequestLogs', 'DELETE', `${V21}/diagnostics/request_logs`, REQUEST_LOGS),
  op('DiagnosticsApi.getRequestLog', 'GET', `${V21}/diagnostics/request_logs/:requestLogId`, REQUEST_LOGS),
  op('DiagnosticsApi.getRequestLogSettings', 'GET', `${V21}/diagnostics/settings`, REQUEST_LOGS),
  op('DiagnosticsApi.updateRequestLogSettings', 'PUT', `${V21}/diagnostics/settings`, REQUEST_LOGS),

  op('EmailArchiveApi.getBCCEmailArchiveList', 'GET', BCC_ARCHIVES, BCC_EMAIL_ARCHIVES),
  op('EmailArchiveApi.createBCCEmailArchive', 'POST', BCC_ARCHIVES, BCC_EMAIL_ARCHIVES),
  op('EmailArchiveApi.getBCCEmailArchiveHistoryList', 'GET', `${BCC_ARCHIVES}/:bccEmailArchiveId`, BCC_EMAIL_ARCHIVES),
  op('EmailArchiveApi.deleteBCCEmailArchive', 'DELETE', `${BCC_ARCHIVES}/:bccEmailArchiveId`, BCC_EMAIL_ARCHIVES),

  op('EnvelopeApplianceApi.getApplianceInfo', 'GET', `${ACCOUNT}/envelopes/:envelopeId/display_appliance_info`, 'display appliance information (an envelope and its recipients as DocuSign\'s own signing client reads them) is not offered here: recipients sign on this service\'s signing page, through a recipient view or the link of their mail (docs/esign-signing.md, "The signing page")'),

  op('FoldersApi.search', 'GET', `${ACCOUNT}/search_folders/:searchFolderId`, 'search folders (drafts, awaiting_my_signature, out_for_signature, completed) are not offered here; listStatusChanges filters the account\'s envelopes by status, and listItems lists a system folder (docs/esign-envelopes.md, "Folders (FoldersApi)")'),

  op('NotaryApi.getNotary', 'GET', NOTARY, NOTARIZATION),
  op('NotaryApi.createNotary', 'POST', NOTARY, NOTARIZATION),
  op('NotaryApi.updateNotary', 'PUT', NOTARY, NOTARIZATION),
  op('NotaryApi.getNotaryJurisdictions', 'GET', `${NOTARY}/jurisdictions`, NOTARIZATION),
  op('NotaryApi.createNotaryJurisdictions', 'POST', `${NOTARY}/jurisdictions`, NOTARIZATION),
  op('NotaryApi.getNotaryJurisdiction', 'GET', JURISDICTION, NOTARIZATION),
  op('NotaryApi.updateNotaryJurisdiction', 'PUT', JURISDICTION, NOTARIZATION),
  op('NotaryApi.deleteNotaryJurisdiction', 'DELETE', JURISDICTION, NOTARIZATION),
  op('NotaryApi.getNotaryJurisdictionSeal', 'GET', `${JURISDICTION}/seal`, NOTARIZATION),
  op('NotaryApi.listNotaryJournals', 'GET', `${NOTARY}/journals`, NOTARIZATION),

  op('OrganizationsApi.getReportV2', 'GET', `${V21}/organization_reporting/:organizationId/reportsv2/:reportCorrelationId`, 'organization reports are not offered here: there are no organizations above accounts; listStatusChanges lists an account\'s envelopes (docs/esign-envelopes.md, "Routes")'),

  op('PowerFormsApi.listPowerForms', 'GET', POWERFORMS, POWERFORM),
  op('PowerFormsApi.createPowerForm', 'POST', POWERFORMS, POWERFORM),
  op('PowerFormsApi.deletePowerForms', 'DELETE', POWERFORMS, POWERFORM),
  op('PowerFormsApi.listPowerFormSenders', 'GET', `${POWERFORMS}/senders`, POWERFORM),
  op('PowerFormsApi.getPowerForm', 'GET', `${POWERFORMS}/:powerFormId`, POWERFORM),
  op('PowerFormsApi.updatePowerForm', 'PUT', `${POWERFORMS}/:powerFormId`, POWERFORM),
  op('PowerFormsApi.deletePowerForm', 'DELETE', `${POWERFORMS}/:powerFormId`, POWERFORM),
  op('PowerFormsApi.getPowerFormData', 'GET', `${POWERFORMS}/:powerFormId/form_data`, POWERFORM),

  op('SignatureApi.getUserInfo', 'GET', `${V21}/signature/userInfo`, SIGN_HASH),
  op('SignatureApi.signHashSessionInfo', 'POST', `${V21}/signature/signhashsessioninfo`, SIGN_HASH),
  op('SignatureApi.completeSignHash', 'POST', `${V21}/signature/completesignhash`, SIGN_HASH),
  op('SignatureApi.updateTransaction', 'POST', `${V21}/signature/updatetransaction`, SIGN_HASH),
  op('SignatureApi.healthCheck', 'POST', `${V21}/signature/healthcheck`, SIGN_HASH),

  op('SigningGroupsApi.list', 'GET', SIGNING_GROUPS, SIGNING_GROUP),
  op('SigningGroupsApi.createList', 'POST', SIGNING_GROUPS, SIGNING_GROUP),
  op('SigningGroupsApi.updateList', 'PUT', SIGNING_GROUPS, SIGNING_GROUP),
  op('SigningGroupsApi.deleteList', 'DELETE', SIGNING_GROUPS, SIGNING_GROUP),
  op('SigningGroupsApi.get', 'GET', `${SIGNING_GROUPS}/:signingGroupId`, SIGNING_GROUP),
  op('SigningGroupsApi.update', 'PUT', `${SIGNING_GROUPS}/:signingGroupId`, SIGNING_GROUP),
  op('SigningGroupsApi.listUsers', 'GET', `${SIGNING_GROUPS}/:signingGroupId/users`, SIGNING_GROUP),
  op('SigningGroupsApi.updateUsers', 'PUT', `${SIGNING_GROUPS}/:signingGroupId/users`, SIGNING_GROUP),
  op('SigningGroupsApi.deleteUsers', 'DELETE', `${SIGNING_GROUPS}/:signingGroupId/users`, SIGNING_GROUP),

  op('TrustServiceProvidersApi.getSealProviders', 'GET', `${ACCOUNT}/seals`, 'electronic seals from trust service providers are not offered here; completed documents carry this service\'s own seal (docs/esign-signing.md, "Completion"; docs/pdf.md)'),

  op('WorkspacesApi.listWorkspaces', 'GET', `${ACCOUNT}/workspaces`, WORKSPACES),
  op('WorkspacesApi.createWorkspace', 'POST', `${ACCOUNT}/workspaces`, WORKSPACES),
  op('WorkspacesApi.getWorkspace', 'GET', WORKSPACE, WORKSPACES),
  op('WorkspacesApi.updateWorkspace', 'PUT', WORKSPACE, WORKSPACES),
  op('WorkspacesApi.deleteWorkspace', 'DELETE', WORKSPACE, WORKSPACES),
  op('WorkspacesApi.listWorkspaceFolderItems', 'GET', WORKSPACE_FOLDER, WORKSPACES),
  op('WorkspacesApi.deleteWorkspaceFolderItems', 'DELETE', WORKSPACE_FOLDER, WORKSPACES),
  op('WorkspacesApi.createWorkspaceFile', 'POST', `${WORKSPACE_FOLDER}/files`, WORKSPACES),
  op('WorkspacesApi.getWorkspaceFile', 'GET', `${WORKSPACE_FOLDER}/files/:fileId`, WORKSPACES),
  op('WorkspacesApi.updateWorkspaceFile', 'PUT', `${WORKSPACE_FOLDER}/files/:fileId`, WORKSPACES),
  op('WorkspacesApi.listWorkspaceFilePages', 'GET', `${WORKSPACE_FOLDER}/files/:fileId/pages`, WORKSPACES),
];
