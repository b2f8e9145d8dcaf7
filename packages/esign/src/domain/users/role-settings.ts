/**
 * DocuSign's AccountRoleSettings (node_modules/docusign-esign/src/model/AccountRoleSettings.js):
 * the settings of a permission profile. Five are enforced on every /restapi route
 * (domain/users/route-permission.ts); every other plain property of the model is stored as its
 * string and returned as given (docs/esign-users.md). `signingUiVersion` is not a property of
 * the SDK's model but its `signingUiVersionMetadata` twin is, and DocuSign's createPermission
 * example sends it: it is stored like the rest.
 */
export type RoleSettings = Readonly<Record<string, string>>;

/** The five enforced settings and the values they take. */
export const ENFORCED_SETTINGS = {
  allowEnvelopeSending: ['true', 'false'],
  allowedTemplateAccess: ['none', 'use', 'create', 'share'],
  allowAccountManagement: ['true', 'false'],
  allowApiAccess: ['true', 'false'],
  allowApiAccessToAccount: ['true', 'false'],
} as const satisfies Record<string, readonly string[]>;

export type EnforcedSetting = keyof typeof ENFORCED_SETTINGS;

/** The model's plain (string) properties other than the enforced ones: stored and returned. */
export const STORED_SETTINGS: readonly string[] = [
  'accountAgreementsAccessType', 'allowApiSendingOnBehalfOfOthers', 'allowApiSequentialSigning',
  'allowAutoTagging', 'allowBulkSending', 'allowDocuSignDesktopClient', 'allowedAddressBookAccess', 'allowedClickwrapsAccess',
  'allowedDocumentTemplateLibraryAccess', 'allowedOrchestrationAccess', 'allowedToBeEnvelopeTransferRecipient', 'allowESealRecipients',
  'allowPowerFormsAdminToAccessAllPowerFormEnvelopes', 'allowSendersToSetRecipientEmailLanguage', 'allowSignerAttachments',
  'allowSupplementalDocuments', 'allowTaggingInSendAndCorrect', 'allowTransactions', 'allowVaulting', 'allowWetSigningOverride',
  'canBulkUploadAgreements', 'canCreateTransaction', 'canCreateWorkspaces', 'canDeleteDocumentsInTransaction', 'canDeleteTransaction',
  'canManageAgreementDeskRequest', 'canManageAgreementDeskRequestSetting', 'canSendEnvelopesViaSMS', 'disableDocumentUpload',
  'disableOtherActions', 'enableApiRequestLogging', 'enableKeyTermsSuggestionsByDocumentType', 'enableRecipientViewingNotifications',
  'enableSequentialSigningInterface', 'enableTransactionPointIntegration', 'playbookAccess', 'powerFormRole',
  'receiveCompletedSelfSignedDocumentsAsEmailLinks', 'supplementalDocumentsMustAccept', 'supplementalDocumentsMustRead',
  'supplementalDocumentsMustView', 'useNewDocuSignExperienceInterface', 'useNewSendingInterface', 'vaultingMode', 'webForms',
  'signingUiVersion',
];

/** Properties of the model this service neither enforces nor stores, with why. */
export const REFUSED_SETTINGS: Readonly<Record<string, string>> = {
  accountManagementGranular: 'granular account management is not supported; allowAccountManagement grants all of it or none',
};

/** The three profiles every account has (DocuSign's defaults), with what they allow. */
export const DEFAULT_PROFILES = {
  admin: { name: 'Account Administrator', settings: { allowAccountManagement: 'true', allowEnvelopeSending: 'true', allowedTemplateAccess: 'share', allowApiAccess: 'true' } },
  sender: { name: 'DocuSign Sender', settings: { allowAccountManagement: 'false', allowEnvelopeSending: 'true', allowedTemplateAccess: 'share', allowApiAccess: 'true' } },
  viewer: { name: 'DocuSign Viewer', settings: { allowAccountManagement: 'false', allowEnvelopeSending: 'false', allowedTemplateAccess: 'none', allowApiAccess: 'false' } },
} as const satisfies Record<string, { name: string; settings: RoleSettings }>;

export type DefaultProfileKind = keyof typeof DEFAULT_PROFILES;

/** An enforced setting a profile leaves unset reads as denied, so a profile grants only what it says. */
export function enforcedValue(settings: RoleSettings, name: EnforcedSetting): string {
  return settings[name] ?? (name === 'allowedTemplateAccess' ? 'none' : 'false');
}

/**
 * What the member's profile allows, as the route rule reads it. `allEnvelopes`: every envelope
 * of the account, not only those the member sent or received (domain/envelope/envelope-access.ts);
 * account management implies it, as DocuSign's administrator profile has it.
 */
export type Rights = { readonly send: boolean; readonly templates: 'none' | 'use' | 'edit'; readonly manageAccount: boolean; readonly api: boolean; readonly allEnvelopes: boolean };

export function rightsOf(settings: RoleSettings): Rights {
  const t = enforcedValue(settings, 'allowedTemplateAccess');
  const manageAccount = enforcedValue(settings, 'allowAccountManagement') === 'true';
  return {
    send: enforcedValue(settings, 'allowEnvelopeSending') === 'true',
    templates: t === 'none' ? 'none' : t === 'use' ? 'use' : 'edit',
    manageAccount,
    api: enforcedValue(settings, 'allowApiAccess') === 'true',
    allEnvelopes: manageAccount || enforcedValue(settings, 'allowApiAccessToAccount') === 'true',
  };
}
