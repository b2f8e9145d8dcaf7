import { approveKind, declineKind, viewKind } from './kinds/buttons.ts';
import { checkboxKind } from './kinds/checkbox.ts';
import { dateKind, emailKind, ssnKind, zipKind } from './kinds/formatted-text.ts';
import { formulaKind } from './kinds/formula.ts';
import { dateSignedKind, emailAddressKind, firstNameKind, fullNameKind, lastNameKind } from './kinds/auto-filled.ts';
import { listKind } from './kinds/list.ts';
import { noteKind } from './kinds/note.ts';
import { numberKind, numericalKind } from './kinds/number.ts';
import { radioGroupKind } from './kinds/radio-group.ts';
import { initialHereKind, signerAttachmentKind, signHereKind } from './kinds/signature.ts';
import { companyKind, textKind, titleKind } from './kinds/text.ts';
import type { TabKind } from './tab-kind.ts';
import type { TabType } from './tab.ts';

/** Every tab type this service implements, in the SDK Tabs model's order of use. */
export const TAB_KINDS: readonly TabKind[] = [
  signHereKind, initialHereKind, dateSignedKind, fullNameKind, firstNameKind, lastNameKind, emailAddressKind,
  companyKind, titleKind, textKind, numberKind, numericalKind, dateKind, emailKind, zipKind, ssnKind,
  checkboxKind, radioGroupKind, listKind, noteKind, formulaKind, approveKind, declineKind, signerAttachmentKind, viewKind,
];

// Case-folded: DocuSign matches property names in any case (its examples send `SignHereTabs`).
const BY_WIRE_KEY = new Map(TAB_KINDS.map((k) => [k.wireKey.toLowerCase(), k]));
const BY_TYPE = new Map(TAB_KINDS.map((k) => [k.type, k]));

/** The kind of a Tabs property (textTabs → text), undefined when this service has no such type. */
export function findKindByWireKey(wireKey: string): TabKind | undefined {
  return BY_WIRE_KEY.get(wireKey.toLowerCase());
}

/** The kind of a parsed tab. */
export function kindOf(type: TabType): TabKind {
  const kind = BY_TYPE.get(type);
  if (!kind) throw new TypeError(`no tab kind for ${type}`);
  return kind;
}

/**
 * The Tabs lists DocuSign has and this service does not, each refused by name with the reason
 * (the SDK's Tabs model has 39 properties).
 */
export const UNSUPPORTED_TAB_LISTS: Readonly<Record<string, string>> = {
  commentThreadTabs: 'comments are not supported',
  commissionCountyTabs: 'notary tabs are not supported',
  commissionExpirationTabs: 'notary tabs are not supported',
  commissionNumberTabs: 'notary tabs are not supported',
  commissionStateTabs: 'notary tabs are not supported',
  drawTabs: 'drawing tabs are not supported',
  envelopeIdTabs: 'envelope id tabs are not supported',
  notarizeTabs: 'notary tabs are not supported',
  notarySealTabs: 'notary tabs are not supported',
  phoneNumberTabs: 'phone number tabs are not supported',
  polyLineOverlayTabs: 'overlay tabs are not supported',
  prefillTabs: 'sender prefill tabs are not supported; give tabs a value instead',
  smartSectionTabs: 'smart sections are not supported',
  tabGroups: 'tab groups are not supported',
};
