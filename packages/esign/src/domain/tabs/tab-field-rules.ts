/**
 * How this service treats each field of DocuSign's tab models (node_modules/docusign-esign/src/
 * model/*.js): honoured (read and acted on), output (written by the service, such as tabId or
 * status, so a client that sends back what it read is not refused: accepted and ignored on
 * purpose), or refused with the reason. A refused field is refused only when it asks for
 * something: absent, blank and false are accepted. `<field>Metadata` fields describe a field for
 * DocuSign's editors and are output. Fields outside the model are refused as unknown.
 */
export type FieldRule = { readonly rule: 'honoured' } | { readonly rule: 'output' } | { readonly rule: 'refused'; readonly why: string };

const honoured: FieldRule = { rule: 'honoured' };
const output: FieldRule = { rule: 'output' };
const refused = (why: string): FieldRule => ({ rule: 'refused', why });

/** The 46 fields every positioned tab model has. */
export const COMMON_FIELDS = [
  'agreementAttribute', 'agreementAttributeLocked', 'anchorAllowWhiteSpaceInCharacters', 'anchorCaseSensitive', 'anchorHorizontalAlignment',
  'anchorIgnoreIfNotPresent', 'anchorMatchWholeWord', 'anchorString', 'anchorTabProcessorVersion', 'anchorTabScope', 'anchorUnits',
  'anchorXOffset', 'anchorYOffset', 'caption', 'conditionalParentLabel', 'conditionalParentValue', 'connectedObjectDetails', 'customTabId',
  'documentId', 'errorDetails', 'extensionData', 'formOrder', 'formPageLabel', 'formPageNumber', 'height', 'mergeField', 'mergeFieldXml',
  'pageNumber', 'recipientId', 'recipientIdGuid', 'smartContractInformation', 'source', 'status', 'tabFullyQualifiedPath', 'tabGroupLabels',
  'tabId', 'tabLabel', 'tabOrder', 'tabType', 'templateLocked', 'templateRequired', 'tooltip', 'warningDetails', 'width', 'xPosition', 'yPosition',
] as const;
export const FONT_FIELDS = ['bold', 'font', 'fontColor', 'fontSize', 'italic', 'underline'] as const;
/** Fields of the tabs a signer types into (company, title and the text family). */
export const ENTRY_FIELDS = [...FONT_FIELDS, 'concealValueOnDocument', 'disableAutoSize', 'localePolicy', 'locked', 'maxLength', 'name', 'originalValue', 'required', 'value'] as const;
export const SHARING_FIELDS = ['requireAll', 'requireInitialOnSharedChange', 'senderRequired', 'shareToRecipients', 'shared'] as const;
export const VALIDATION_FIELDS = ['validationMessage', 'validationPattern'] as const;

/** The rule of every field name that occurs in a tab model; a kind may override one (tab-kind.ts). */
export const FIELD_RULES: Readonly<Record<string, FieldRule>> = {
  // Placement (docs/esign-tabs.md, "Placement").
  anchorString: honoured, anchorXOffset: honoured, anchorYOffset: honoured, anchorUnits: honoured, anchorIgnoreIfNotPresent: honoured,
  anchorCaseSensitive: honoured, anchorMatchWholeWord: honoured, anchorHorizontalAlignment: honoured, anchorAllowWhiteSpaceInCharacters: honoured,
  // "Reserved for DocuSign" in the SDK: echoed by clients, meaningless to send.
  anchorTabProcessorVersion: output,
  anchorTabScope: refused('anchor scopes are undocumented and not implemented; anchors are searched in every document'),
  documentId: honoured, pageNumber: honoured, xPosition: honoured, yPosition: honoured, width: honoured, height: honoured,
  // Identity and behaviour.
  tabLabel: honoured, name: honoured, tooltip: honoured, tabOrder: honoured, recipientId: honoured,
  conditionalParentLabel: honoured, conditionalParentValue: honoured,
  required: honoured, locked: honoured, optional: honoured, value: honoured, maxLength: honoured,
  validationPattern: honoured, validationMessage: honoured, localePolicy: honoured, scaleValue: honoured,
  // Written by the service.
  tabId: output, recipientIdGuid: output, tabType: output, status: output, errorDetails: output, warningDetails: output,
  tabFullyQualifiedPath: output, source: output, originalValue: output, originalNumericalValue: output, selectedOriginal: output,
  // Refused: features this service does not have.
  agreementAttribute: refused('agreement attributes are not supported'),
  agreementAttributeLocked: refused('agreement attributes are not supported'),
  caption: refused('tab captions are not supported'),
  connectedObjectDetails: refused('connected objects (extension apps) are not supported'),
  customTabId: refused('custom tabs are not supported'),
  extensionData: refused('extension apps are not supported'),
  formOrder: refused('guided forms are not supported'),
  formPageLabel: refused('guided forms are not supported'),
  formPageNumber: refused('guided forms are not supported'),
  mergeField: refused('merge fields are not supported'),
  mergeFieldXml: refused('merge fields are not supported'),
  smartContractInformation: refused('smart contracts are not supported'),
  tabGroupLabels: refused('tab groups are not supported'),
  templateLocked: refused('belongs to templates, which envelopes do not take here'),
  templateRequired: refused('belongs to templates, which envelopes do not take here'),
  concealValueOnDocument: refused('concealed values are not supported'),
  disableAutoSize: refused('the box keeps its size; auto-size cannot be switched off'),
  requireAll: refused('shared tabs are not supported'),
  requireInitialOnSharedChange: refused('shared tabs are not supported'),
  senderRequired: refused('sender-required tabs are not supported'),
  shareToRecipients: refused('shared tabs are not supported'),
  shared: refused('shared tabs are not supported'),
  formula: refused('calculated text and number tabs are not supported; use formulaTabs'),
  // DocuSign collects a payment through the account's payment gateway; none runs here.
  isPaymentAmount: refused('payments are not supported: no payment gateway runs here'),
  paymentDetails: refused('payments are not supported: no payment gateway runs here'),
  handDrawRequired: refused('requiring a hand-drawn signature is not supported'),
  isSealSignTab: refused('electronic seals are not supported'),
  stamp: refused('stamps are not supported'),
  stampType: refused('stamps are not supported'),
  timestampStandardized: refused('standardized timestamps are not supported'),
  // Font.
  bold: honoured, font: honoured, fontColor: honoured, fontSize: honoured, italic: honoured, underline: honoured,
  // Type-specific fields, read by their kind.
  useDash4: honoured, minNumericalValue: honoured, maxNumericalValue: honoured, numericalValue: honoured, validationType: honoured,
  selected: honoured, listItems: honoured, listSelectedValue: honoured, hidden: honoured, roundDecimalPlaces: honoured,
  buttonText: honoured, declineReason: honoured, requiredRead: honoured,
};

/** For kinds that read no localePolicy: a policy would change formats this service does not vary. */
export const NO_LOCALE_POLICY: Readonly<Record<string, FieldRule>> = {
  localePolicy: refused('locale policies are implemented for number, numerical and formula tabs only'),
};
