import type { PasscodeMethod } from './passcode.ts';

/**
 * The identity verification workflows every account offers (AccountsApi.getAccountIdentityVerification,
 * docusign-esign src/model/AccountIdentityVerificationWorkflow.js): the ones this service runs
 * itself, each a one-time passcode. DocuSign's examples look a workflow up by `defaultName`
 * ("Phone Authentication" in phoneAuthentication) and send its id in Signer.identityVerification.
 * Third-party products (DocuSign ID Verification, knowledge-based authentication) are not
 * offered: a signer naming them is refused (wire/parse-recipient-authentication.ts).
 * The ids are fixed, so an integration may keep one across restarts and instances.
 */
export type IdentityWorkflow = { readonly workflowId: string; readonly defaultName: string; readonly method: PasscodeMethod; readonly resourceKey: string };

export const IDENTITY_WORKFLOWS: readonly IdentityWorkflow[] = [
  { workflowId: '7a6e3b1c-5d0f-4c8e-9b2a-1f4d6e8a0c31', defaultName: 'Phone Authentication', method: 'phone', resourceKey: 'PhoneAuth' },
  { workflowId: '0b9d2e4f-6a1c-4e7b-8d3f-5c2a9e1b7d42', defaultName: 'SMS Authentication', method: 'sms', resourceKey: 'SmsAuth' },
  { workflowId: '3c8f1a2d-9e4b-4a6c-b7d0-2e5f8a1c4b53', defaultName: 'Email Passcode', method: 'email', resourceKey: 'EmailPasscode' },
];

export function identityWorkflow(workflowId: string): IdentityWorkflow | undefined {
  return IDENTITY_WORKFLOWS.find((w) => w.workflowId.toLowerCase() === workflowId.toLowerCase());
}
