import { identityWorkflow, IDENTITY_WORKFLOWS } from '../domain/signing/identity-workflows.ts';
import type { PasscodeMethod, PasscodeRequest } from '../domain/signing/passcode.ts';
import { asksForNothing } from '../domain/tabs/check-tab-fields.ts';
import { WireReader } from './wire-reader.ts';

// The idCheckConfigurationName values DocuSign gives its passcode checks (smsAuthentication
// example: "SMS Auth $"; phone authentication: "Phone Auth $"); its knowledge-based check is
// "ID Check $" (kbaAuthentication example: "ID Check").
const ID_CHECKS: Readonly<Record<string, PasscodeMethod>> = { 'sms auth $': 'sms', 'phone auth $': 'phone' };
const MAX_NUMBERS = 5;
const NUMBER = /^\+?[0-9][0-9 ().-]{4,30}$/;

const OFFERED = IDENTITY_WORKFLOWS.map((w) => `"${w.defaultName}"`).join(', ');

/** The field, read as absent when it asks for nothing (null, blank, false, empty): DocuSign's examples send `smsAuthentication: null`. */
function given(r: WireReader): WireReader {
  return asksForNothing(r.value) ? new WireReader(r.path, undefined) : r;
}

/** A phone number as given (`+1 (555) 010-2030`), kept as `+` and digits; refused when it is not one. */
function phoneNumber(r: WireReader, text: string): string {
  if (!NUMBER.test(text)) r.fail(`must be a phone number (digits, optionally a leading + and the country code), got "${text}".`);
  const digits = text.replace(/[^0-9]/g, '');
  if (digits.length < 6 || digits.length > 15) r.fail(`must be a phone number of 6 to 15 digits, got "${text}".`);
  return `${text.startsWith('+') ? '+' : ''}${digits}`;
}

function senderNumbers(r: WireReader): string[] {
  const items = r.field('senderProvidedNumbers').items();
  if (items.length > MAX_NUMBERS) r.field('senderProvidedNumbers').fail(`may hold at most ${MAX_NUMBERS} numbers.`);
  return items.map((n) => phoneNumber(n, n.string(40)));
}

type GivenNumber = { readonly countryCode: string; readonly number: string };

/**
 * identityVerification.inputOptions[name=phone_number_list].phoneNumberList (RecipientIdentityPhoneNumber:
 * countryCode, number): each as the sender wrote it (read back so), and where the code goes.
 */
function workflowNumbers(idv: WireReader): { given: GivenNumber[]; numbers: string[] } {
  const given: GivenNumber[] = [];
  const numbers: string[] = [];
  for (const option of idv.field('inputOptions').items()) {
    for (const entry of option.field('phoneNumberList').items()) {
      const countryCode = entry.field('countryCode').optionalString(8) ?? '';
      const country = countryCode.replace(/^\+/, '');
      const number = entry.field('number').string(40);
      numbers.push(phoneNumber(entry.field('number'), country ? `+${country}${number.replace(/^\+/, '')}` : number));
      given.push({ countryCode, number });
    }
  }
  if (numbers.length > MAX_NUMBERS) idv.field('inputOptions').fail(`may hold at most ${MAX_NUMBERS} phone numbers.`);
  return { given, numbers };
}

/**
 * The one-time passcode a Signer asks for (smsAuthentication, phoneAuthentication,
 * identityVerification with one of IDENTITY_WORKFLOWS, idCheckConfigurationName,
 * requireIdLookup), or undefined when it asks for none. Everything that would let the signer
 * in without the check the sender meant is refused by name: a knowledge-based or ID
 * verification product, a number the recipient may choose, a check with nowhere to send the code.
 */
export function parseRecipientAuthentication(r: WireReader, email: string): PasscodeRequest | undefined {
  const idCheck = r.field('idCheckConfigurationName').optionalString(100);
  const requireIdLookup = r.field('requireIdLookup').boolean(false);
  const sms = given(r.field('smsAuthentication'));
  const phone = given(r.field('phoneAuthentication'));
  const idv = given(r.field('identityVerification'));
  const asked: PasscodeRequest[] = [];

  let checkMethod: PasscodeMethod | undefined;
  if (idCheck !== undefined) {
    checkMethod = ID_CHECKS[idCheck.toLowerCase()];
    if (checkMethod === undefined) {
      if (/id check/i.test(idCheck)) r.field('idCheckConfigurationName').fail(`"${idCheck}" is knowledge-based authentication (KBA), which this service does not run: the signer would sign without it. Use "SMS Auth $" or "Phone Auth $".`);
      r.field('idCheckConfigurationName').fail(`"${idCheck}" is not an ID check this service runs; use "SMS Auth $" (smsAuthentication) or "Phone Auth $" (phoneAuthentication).`);
    }
  }

  const smsNumbers = senderNumbers(sms);
  if (smsNumbers.length > 0) asked.push({ method: 'sms', destinations: smsNumbers, askedAs: { kind: 'idCheck' } });
  if (phone.field('recipMayProvideNumber').boolean(false)) phone.field('recipMayProvideNumber').fail('is not supported: the signer would choose the number the code goes to, which proves nothing. Give senderProvidedNumbers.');
  if (phone.field('validateRecipProvidedNumber').boolean(false)) phone.field('validateRecipProvidedNumber').fail('is not supported: numbers are given by the sender.');
  if (phone.field('recordVoicePrint').boolean(false)) phone.field('recordVoicePrint').fail('is not supported: no voice print is recorded.');
  const phoneNumbers = senderNumbers(phone);
  if (phoneNumbers.length > 0) asked.push({ method: 'phone', destinations: phoneNumbers, askedAs: { kind: 'idCheck' } });

  const workflowId = idv.field('workflowId').optionalString(100);
  if (workflowId !== undefined) {
    const workflow = identityWorkflow(workflowId) ?? idv.field('workflowId').fail(`"${workflowId}" is not an identity verification workflow of this account: ID verification products (DocuSign ID Verification, IDV) and knowledge-based authentication (KBA) are not supported, the signer would sign without them. AccountsApi.getAccountIdentityVerification lists the ones offered: ${OFFERED}.`);
    if (workflow.method === 'email') asked.push({ method: 'email', destinations: [email], askedAs: { kind: 'identityVerification', workflowId: workflow.workflowId, phoneNumbers: [] } });
    else {
      const { given: phoneNumbers, numbers } = workflowNumbers(idv);
      if (numbers.length === 0) idv.field('inputOptions').fail(`needs a phone_number_list with at least one number for the "${workflow.defaultName}" workflow.`);
      asked.push({ method: workflow.method, destinations: numbers, askedAs: { kind: 'identityVerification', workflowId: workflow.workflowId, phoneNumbers } });
    }
  } else if (idv.present) {
    idv.field('workflowId').fail('is required when identityVerification is given.');
  }

  if (asked.length > 1) r.fail(`asks for more than one one-time passcode check (${asked.map((a) => a.method).join(', ')}); give one.`);
  const request = asked[0];
  if (checkMethod !== undefined && request === undefined) r.field(checkMethod === 'sms' ? 'smsAuthentication' : 'phoneAuthentication').fail(`needs senderProvidedNumbers for idCheckConfigurationName "${idCheck ?? ''}".`);
  if (checkMethod !== undefined && request !== undefined && request.method !== checkMethod) r.field('idCheckConfigurationName').fail(`"${idCheck ?? ''}" does not match the ${request.method} check given.`);
  if (requireIdLookup && request === undefined) r.field('requireIdLookup').fail('is true but no check is given: use idCheckConfigurationName "SMS Auth $" with smsAuthentication, or "Phone Auth $" with phoneAuthentication.');
  return request;
}
