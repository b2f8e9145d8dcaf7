import type { AccountRow } from '../store/schema.ts';

/**
 * DocuSign's AccountInformation (GET /v2.1/accounts/{accountId}); every scalar a string, as
 * the SDK's model declares (docusign-esign src/model/AccountInformation.js). Only fields this
 * service can fill honestly are sent; absent ones are omitted, never null (convertToType
 * in docusign-esign src/ApiClient.js throws on a null array).
 */
export function accountInformation(account: AccountRow): Record<string, string> {
  return {
    accountIdGuid: account.id,
    accountName: account.name,
    createdDate: account.created_at,
    currentPlanId: 'signet-developer',
    planName: 'Signet developer',
    isDowngrade: 'false',
    canUpgrade: 'false',
    envelopeSendingBlocked: 'false',
  };
}
