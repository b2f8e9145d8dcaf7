import type { AccountRow } from '../store/schema.ts';

/**
 * DocuSign's AccountInformation (GET /v2.1/accounts/{accountId}); every scalar a string, as
 * the SDK's model declares (compat/esign-wire.md §0.10). Only fields this service can fill
 * honestly are sent; absent ones are omitted, never null (§0.9).
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
