import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pdfFieldNameKind } from './pdf-field-name-rule.ts';

test('DocuSign\'s naming rule: the marker then the kind, longest kind first; IgnoreTransform wins; ordinary words are not markers', () => {
  for (const [name, kind] of [
    ['eSignSignHere', 'signHere'], ['Buyer DocuSignSignHereOptional 2', 'signHereOptional'], ['DocusignInitialHere', 'initialHere'],
    ['eSignInitialHereOptional', 'initialHereOptional'], ['eSignDateSigned', 'dateSigned'], ['eSignDate_start', 'date'],
    ['DocuSignZIP5DASH4', 'zip5Dash4'], ['eSignZIP5', 'zip5'], ['eSignSSN', 'ssn'], ['eSignSignerAttachmentOptional', 'signerAttachmentOptional'],
    ['eSignSignerAttachment', 'signerAttachment'], ['eSignEnvelopeID', 'envelopeId'], ['eSignFullName', 'fullName'],
    ['eSignSignHere eSignIgnoreTransform', 'ignore'], ['footer DocuSignIgnoreTransform', 'ignore'],
    ['DesignDate', undefined], ['esigndate', undefined], ['buyer.name', undefined], ['eSign', undefined], ['eSignUnknown', undefined],
  ] as const) assert.equal(pdfFieldNameKind(name), kind, name);
});
