import { COMMON_FIELDS } from '../tab-field-rules.ts';
import { defineKind, fieldTable } from '../tab-kind.ts';
import { parseTabBase } from '../parse-tab-base.ts';
import { parseTabPlace } from '../parse-tab-place.ts';
import type { SignatureTab } from '../tab.ts';
import type { WireField } from '../wire-field.ts';
import type { TabContext } from '../tab-kind.ts';

function parseSignature(type: SignatureTab['type']) {
  return (tab: WireField, context: TabContext): SignatureTab => {
    const scaleValue = tab.field('scaleValue').optionalNumber();
    // The SignHere parser's bound: a signature drawn at half to twice its size.
    if (scaleValue !== undefined && (scaleValue < 0.5 || scaleValue > 2)) tab.field('scaleValue').fail('must be from 0.5 to 2.');
    return {
      ...parseTabBase(tab, type, { requiredFrom: 'optional', lockable: false, ...context }),
      type,
      place: parseTabPlace(tab),
      ...(scaleValue !== undefined ? { scaleValue } : {}),
    };
  };
}

// Signatures are adopted, not typed: the signer gives them no value.
const noValue = () => 'This tab takes a signature, not a value.';

/** SignHere: the signer's adopted signature. */
export const signHereKind = defineKind<SignatureTab>({
  type: 'signHere', wireKey: 'signHereTabs', model: 'SignHere', takesValue: false,
  fields: fieldTable([...COMMON_FIELDS, 'handDrawRequired', 'isSealSignTab', 'name', 'optional', 'scaleValue', 'stamp', 'stampType']),
  parse: parseSignature('signHere'),
  findValueProblem: noValue,
});

/** InitialHere: the signer's adopted initials. */
export const initialHereKind = defineKind<SignatureTab>({
  type: 'initialHere', wireKey: 'initialHereTabs', model: 'InitialHere', takesValue: false,
  fields: fieldTable([...COMMON_FIELDS, 'handDrawRequired', 'name', 'optional', 'scaleValue']),
  parse: parseSignature('initialHere'),
  findValueProblem: noValue,
});

/**
 * SignerAttachment: the signer uploads a file on the signing page (PDF, PNG or JPEG), which
 * becomes a document of the envelope when they finish (domain/signing/signer-attachments.ts);
 * a required one blocks the Finish until a file is attached.
 */
export const signerAttachmentKind = defineKind<SignatureTab>({
  type: 'signerAttachment', wireKey: 'signerAttachmentTabs', model: 'SignerAttachment', takesValue: false,
  fields: fieldTable([...COMMON_FIELDS, 'handDrawRequired', 'name', 'optional', 'scaleValue']),
  parse: parseSignature('signerAttachment'),
  findValueProblem: () => 'This tab takes an uploaded file, not a value.',
});
