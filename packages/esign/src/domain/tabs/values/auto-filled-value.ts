import type { Tab } from '../tab.ts';
import type { SignDateFormat } from '../../account/sign-date-format.ts';
import { formatAccountDate } from './account-date.ts';

/** Who signs, as the auto-filled tabs write it. */
export type SignerIdentity = { readonly name: string; readonly email: string };

/**
 * The value the service writes in an auto-filled tab when the recipient signs, or undefined for
 * any other type. The name splits at its last space: the last word is the last name, the rest
 * the first name (the recipient has one name field, as the envelope's wire gives it). The date
 * signed is the UTC day in the account's signDateFormat (absent: DocuSign's default).
 */
export function autoFilledValue(tab: Tab, signer: SignerIdentity, signedAt: Date, dateFormat?: SignDateFormat): string | undefined {
  const name = signer.name.replace(/\s+/g, ' ').trim();
  const cut = name.lastIndexOf(' ');
  switch (tab.type) {
    case 'dateSigned':
      return formatAccountDate(signedAt, dateFormat);
    case 'fullName':
      return name;
    case 'firstName':
      return cut < 0 ? name : name.slice(0, cut);
    case 'lastName':
      return cut < 0 ? '' : name.slice(cut + 1);
    case 'emailAddress':
      return signer.email;
    default:
      return undefined;
  }
}
