import { IDENTITY_WORKFLOWS } from '../domain/signing/identity-workflows.ts';

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  phone: 'The signer gets a one-time passcode by voice call or text message to a number the sender gave.',
  sms: 'The signer gets a one-time passcode by text message to a number the sender gave.',
  email: 'The signer gets a one-time passcode by e-mail.',
};

/**
 * AccountsApi.getAccountIdentityVerification (GET /v2.1/accounts/{accountId}/identity_verification;
 * docusign-esign src/model/AccountIdentityVerificationResponse.js): the workflows a signer's
 * identityVerification may name. `identity_verification_workflow_status` filters by status;
 * ours are all active, so any value but "deactivated" lists them all.
 */
export function accountIdentityVerification(status: string | undefined): { identityVerification: Record<string, string>[] } {
  if (status?.toLowerCase() === 'deactivated') return { identityVerification: [] };
  return {
    identityVerification: IDENTITY_WORKFLOWS.map((w, i) => ({
      workflowId: w.workflowId,
      defaultName: w.defaultName,
      defaultDescription: DESCRIPTIONS[w.method] ?? '',
      workflowResourceKey: w.resourceKey,
      workflowLabel: w.defaultName,
      displayOrder: String(i + 1),
      isDisabled: 'false',
      ownerType: 'system',
      signatureProvider: 'none',
    })),
  };
}
