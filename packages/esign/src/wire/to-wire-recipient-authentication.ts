import type { RecipientPasscode } from '../domain/signing/passcode.ts';

/** The Signer fields that say which identity check a recipient must pass (docusign-esign src/model/Signer.js). */
export type WireRecipientAuthentication = {
  idCheckConfigurationName?: 'SMS Auth $' | 'Phone Auth $';
  requireIdLookup?: 'true';
  smsAuthentication?: { senderProvidedNumbers: string[] };
  phoneAuthentication?: { recipMayProvideNumber: 'false'; senderProvidedNumbers: string[] };
  identityVerification?: {
    workflowId: string;
    inputOptions?: { name: 'phone_number_list'; valueType: 'PhoneNumberList'; phoneNumberList: { countryCode?: string; number: string }[] }[];
  };
};

// The names DocuSign gives these checks, as wire/parse-recipient-authentication.ts reads them.
const ID_CHECK_NAMES = { sms: 'SMS Auth $', phone: 'Phone Auth $' } as const;

/**
 * A recipient's one-time passcode check, read back in the shape the sender set it with
 * (domain/signing/passcode.ts PasscodeAskedAs), with what is enforced: an SMS or phone check as
 * idCheckConfigurationName with requireIdLookup "true" and the numbers the code may go to (kept
 * as `+` and digits; the signer may choose no other, so recipMayProvideNumber is "false"); an
 * identity verification workflow by id with its phone_number_list as given. Nothing secret is
 * in it: codes are kept only as hashes and never answered, and the access code is not a field
 * of this answer at all (docs/esign-signing.md, "Reading the checks back").
 */
export function toWireRecipientAuthentication(passcode: RecipientPasscode | undefined): WireRecipientAuthentication {
  if (!passcode) return {};
  const asked = passcode.askedAs;
  if (asked.kind === 'identityVerification') {
    const phoneNumberList = asked.phoneNumbers.map((n) => ({ ...(n.countryCode !== '' ? { countryCode: n.countryCode } : {}), number: n.number }));
    return { identityVerification: { workflowId: asked.workflowId, ...(phoneNumberList.length > 0 ? { inputOptions: [{ name: 'phone_number_list', valueType: 'PhoneNumberList', phoneNumberList }] } : {}) } };
  }
  // An e-mail passcode is only ever asked for by its workflow; an idCheck is SMS or phone.
  if (passcode.method === 'email') return {};
  const senderProvidedNumbers = [...passcode.destinations];
  return {
    idCheckConfigurationName: ID_CHECK_NAMES[passcode.method],
    requireIdLookup: 'true',
    ...(passcode.method === 'sms' ? { smsAuthentication: { senderProvidedNumbers } } : { phoneAuthentication: { recipMayProvideNumber: 'false', senderProvidedNumbers } }),
  };
}
