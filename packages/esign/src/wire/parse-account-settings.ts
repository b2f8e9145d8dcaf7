import type { AccountSettingsPatch } from '../domain/account/account-settings.ts';
import { VERIFY_AUDIT_IP_MODES } from '../domain/account/account-settings.ts';
import { SIGN_DATE_FORMATS, SIGN_TIME_FORMATS, isSignDateFormat, isSignTimeFormat } from '../domain/account/sign-date-format.ts';
import { isSupportedLanguage, SUPPORTED_LANGUAGES } from '../domain/language/languages.ts';
import { EsignError } from '../errors.ts';
import { WireReader } from './wire-reader.ts';

/** Signet's own setting, carried in AccountSettingsInformation.additionalSettings (name/value). */
export const VERIFY_AUDIT_IPS_SETTING = 'signetVerifyAuditIps';

/**
 * The AccountSettingsInformation properties this service honours (node_modules/docusign-esign/
 * src/model/AccountSettingsInformation.js). Every other property of the model, its `…Metadata`
 * twins included, is refused by name on update: nothing is stored that nothing reads
 * (docs/esign-account-settings.md).
 */
export const HONOURED_ACCOUNT_SETTINGS = ['accountName', 'accountDefaultLanguage', 'signDateFormat', 'signTimeFormat', 'additionalSettings'] as const;

const HONOURED = new Map(HONOURED_ACCOUNT_SETTINGS.map((n) => [n.toLowerCase(), n]));
const MAX_ACCOUNT_NAME = 100;

function oneOf<T extends string>(reader: WireReader, allowed: readonly T[], is: (v: string) => v is T): T | undefined {
  const text = reader.optionalString(64);
  if (text === undefined) return undefined;
  // Case matters: DocuSign's language codes and .NET patterns are case-sensitive (`MM` is not `mm`).
  if (!is(text)) reader.fail(`"${text}" is not supported; use one of ${allowed.join(', ')}.`);
  return text;
}

function additionalSettings(reader: WireReader): Pick<AccountSettingsPatch, 'verifyAuditIps'> {
  let verifyAuditIps: AccountSettingsPatch['verifyAuditIps'];
  for (const item of reader.items()) {
    const name = item.field('name').string(100);
    if (name !== VERIFY_AUDIT_IPS_SETTING) {
      throw new EsignError('INVALID_REQUEST_BODY', `${item.path}: not supported: additional setting "${name}" (the only one is ${VERIFY_AUDIT_IPS_SETTING}; docs/esign-account-settings.md).`);
    }
    verifyAuditIps = oneOf(item.field('value'), VERIFY_AUDIT_IP_MODES, (v): v is (typeof VERIFY_AUDIT_IP_MODES)[number] => (VERIFY_AUDIT_IP_MODES as readonly string[]).includes(v)) ?? item.field('value').fail('is required.');
  }
  return verifyAuditIps === undefined ? {} : { verifyAuditIps };
}

/**
 * AccountsApi.updateSettings' body (AccountSettingsInformation) as a patch. Every property this
 * service does not honour is named at once in one INVALID_REQUEST_BODY, before anything is
 * stored; values are checked as strictly, so one bad setting leaves every setting as it was.
 */
export function parseAccountSettings(body: unknown): AccountSettingsPatch {
  const reader = new WireReader('', body);
  const object = reader.object() ?? reader.fail('AccountSettingsInformation is required.');
  const refused = Object.keys(object).filter((k) => !HONOURED.has(k.toLowerCase()));
  if (refused.length > 0) {
    throw new EsignError('INVALID_REQUEST_BODY', `AccountSettingsInformation: not supported: ${refused.join(', ')} (this service honours ${HONOURED_ACCOUNT_SETTINGS.join(', ')}; docs/esign-account-settings.md).`);
  }
  const accountName = reader.field('accountName').optionalString(MAX_ACCOUNT_NAME);
  const language = oneOf(reader.field('accountDefaultLanguage'), SUPPORTED_LANGUAGES, isSupportedLanguage);
  const signDateFormat = oneOf(reader.field('signDateFormat'), SIGN_DATE_FORMATS, isSignDateFormat);
  const signTimeFormat = oneOf(reader.field('signTimeFormat'), SIGN_TIME_FORMATS, isSignTimeFormat);
  return {
    ...(accountName !== undefined ? { accountName } : {}),
    ...(language !== undefined ? { language } : {}),
    ...(signDateFormat !== undefined ? { signDateFormat } : {}),
    ...(signTimeFormat !== undefined ? { signTimeFormat } : {}),
    ...additionalSettings(reader.field('additionalSettings')),
  };
}
