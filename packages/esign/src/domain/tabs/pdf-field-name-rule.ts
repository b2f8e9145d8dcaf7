/**
 * DocuSign's naming rule for PDF form field transformation (DocuSign "PDF form field
 * transformation", esign101/concepts/tabs/pdf-transform): a field whose name contains
 * `DocuSign<Kind>` or `eSign<Kind>` becomes that kind of tab; a name containing
 * `DocuSignIgnoreTransform` or `eSignIgnoreTransform` is not transformed at all. The marker is
 * matched as DocuSign spells it (`eSign`, `DocuSign` or `Docusign`, then the kind in its case),
 * so an ordinary word such as "DesignDate" is not read as a date.
 */
export type PdfFieldNameKind =
  | 'signHere' | 'signHereOptional' | 'initialHere' | 'initialHereOptional' | 'envelopeId' | 'company' | 'dateSigned'
  | 'title' | 'fullName' | 'lastName' | 'firstName' | 'emailAddress' | 'number' | 'date' | 'ssn' | 'zip5' | 'zip5Dash4'
  | 'note' | 'list' | 'checkbox' | 'radio' | 'approve' | 'decline' | 'view' | 'signerAttachment' | 'signerAttachmentOptional'
  | 'ignore';

// Longer names first, so that SignHereOptional is not read as SignHere, DateSigned as Date, ZIP5DASH4 as ZIP5.
const KINDS: readonly (readonly [string, PdfFieldNameKind])[] = [
  ['IgnoreTransform', 'ignore'],
  ['SignHereOptional', 'signHereOptional'], ['SignHere', 'signHere'],
  ['InitialHereOptional', 'initialHereOptional'], ['InitialHere', 'initialHere'],
  ['SignerAttachmentOptional', 'signerAttachmentOptional'], ['SignerAttachment', 'signerAttachment'],
  ['EnvelopeID', 'envelopeId'], ['Company', 'company'], ['DateSigned', 'dateSigned'], ['Title', 'title'],
  ['FullName', 'fullName'], ['LastName', 'lastName'], ['FirstName', 'firstName'], ['EmailAddress', 'emailAddress'],
  ['Number', 'number'], ['Date', 'date'], ['SSN', 'ssn'], ['ZIP5DASH4', 'zip5Dash4'], ['ZIP5', 'zip5'], ['Note', 'note'],
  ['List', 'list'], ['Checkbox', 'checkbox'], ['Radio', 'radio'], ['Approve', 'approve'], ['Decline', 'decline'], ['View', 'view'],
];
const MARKER = /(?:eSign|Docu[Ss]ign)/g;

/** The kind a field's name asks for, or undefined for an ordinary name (the field's own type decides). */
export function pdfFieldNameKind(name: string): PdfFieldNameKind | undefined {
  // IgnoreTransform wins wherever it appears in the name.
  for (const m of name.matchAll(MARKER)) if (name.startsWith('IgnoreTransform', m.index + m[0].length)) return 'ignore';
  for (const m of name.matchAll(MARKER)) {
    const rest = m.index + m[0].length;
    for (const [word, kind] of KINDS) if (name.startsWith(word, rest)) return kind;
  }
  return undefined;
}
