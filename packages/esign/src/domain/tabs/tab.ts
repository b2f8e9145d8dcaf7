import type { AnchorSpec } from '../envelope/envelope.ts';
import type { FormulaNode } from './formula/formula-ast.ts';
import type { SafePattern } from './safe-pattern.ts';

/** Every tab type this service implements, by the singular of its SDK list name (`textTabs` → text). */
export type TabType =
  | 'signHere' | 'initialHere' | 'dateSigned' | 'fullName' | 'firstName' | 'lastName' | 'emailAddress'
  | 'company' | 'title' | 'text' | 'number' | 'numerical' | 'date' | 'email' | 'zip' | 'ssn'
  | 'checkbox' | 'radioGroup' | 'list' | 'note' | 'formula' | 'approve' | 'decline' | 'signerAttachment' | 'view';

/** Anchor placement: the signHere anchor options, plus anchorAllowWhiteSpaceInCharacters (the pdf search honours it). */
export type TabAnchor = AnchorSpec & { readonly allowWhiteSpaceInCharacters: boolean };

/** A place given by documentId, pageNumber and position. */
export type AbsolutePlace = { readonly kind: 'absolute'; readonly documentId: string; readonly pageNumber: number; readonly xPosition: number; readonly yPosition: number };

/**
 * A labelled tab that gives no position of its own: it takes the PDF form field its tabLabel
 * names on a document sent with transformPdfFields (domain/tabs/claim-pdf-fields.ts), on
 * `documentId` only when given. `otherwise`: where it goes when no field is so named (a
 * documentId alone puts it at its page's corner, as before); absent, it is refused then.
 * `valueGiven`: whether the sender gave it a value, which wins over the field's.
 */
export type FormFieldPlace = { readonly kind: 'formField'; readonly documentId?: string; readonly otherwise?: AbsolutePlace; readonly valueGiven: boolean };

/** Where a tab goes: found by anchor text (one tab per match, resolved later), given absolutely, or a PDF form field's. */
export type TabPlace =
  | { readonly kind: 'anchor'; readonly anchor: TabAnchor }
  | AbsolutePlace
  | FormFieldPlace;

/** DocuSign's font names mapped to the PDF standard family that draws them (docs/esign-tabs.md). */
export type FontFamily = 'helvetica' | 'times' | 'courier';

/** DocuSign's fontColor values. */
export type FontColor = 'Black' | 'BrightBlue' | 'BrightRed' | 'DarkGreen' | 'DarkRed' | 'Gold' | 'Green' | 'NavyBlue' | 'Purple' | 'White';

/** How a tab's value is written on the page. */
export type TabFont = {
  /** The DocuSign name as given (Arial, TimesNewRoman, ...), echoed on the wire. */
  readonly font: string;
  readonly family: FontFamily;
  /** Points: DocuSign's Size7 ... Size72. */
  readonly fontSize: number;
  readonly bold: boolean;
  readonly italic: boolean;
  readonly underline: boolean;
  readonly fontColor: FontColor;
};

/** Shown only while another tab (by tabLabel) has this value; for a checkbox parent "on" or "off". */
export type TabConditional = { readonly parentLabel: string; readonly parentValue: string };

/**
 * How a number tab reads and writes numbers: its culture (localePolicy.cultureName) and the
 * separators it uses, from the culture or from a currency format. `money`: a Currency numerical
 * tab's currency (parse-number-locale.ts).
 */
export type NumberLocale = { readonly cultureName: string; readonly decimal: string; readonly group: string; readonly money?: Money };

/**
 * One piece of an amount as written, in order: the currency symbol, the digits (grouped, two
 * decimals), the minus sign, a parenthesis, a space.
 */
export type MoneyPiece = 'symbol' | 'amount' | 'minus' | '(' | ')' | ' ';

/**
 * A Currency numerical tab's currency (LocalePolicyTab): the code as given (currencyCode) and
 * upper-cased (`code`), the symbol of that currency in the tab's culture, how positive and
 * negative amounts are laid out (from currencyPositiveFormat/currencyNegativeFormat, kept as
 * given, or from the culture), and `long` (useLongCurrencyFormat): the code written after the amount.
 */
export type Money = {
  readonly currencyCode: string;
  readonly code: string;
  readonly symbol: string;
  readonly positive: readonly MoneyPiece[];
  readonly negative: readonly MoneyPiece[];
  readonly positiveFormat?: string;
  readonly negativeFormat?: string;
  readonly long: boolean;
};

/** What every tab has. Sizes and positions are points (DocuSign's "pixels"). */
export type TabBase = {
  readonly type: TabType;
  readonly tabLabel?: string;
  readonly name?: string;
  readonly tooltip?: string;
  readonly tabOrder?: number;
  /** The box; absent → the type's default size. */
  readonly width?: number;
  readonly height?: number;
  /** A tab the signer must act on (for SignHere/InitialHere/SignerAttachment: not `optional`). */
  readonly required: boolean;
  /** The signer sees the value but cannot change it. */
  readonly locked: boolean;
  readonly conditional?: TabConditional;
};

/** A tab with one place (every type but radioGroup, whose radios each have theirs). */
export type TabCommon = TabBase & { readonly place: TabPlace };

/** Tabs that write a value in text. */
export type TextualTab = TabCommon & { readonly font: TabFont };

export type SignatureTab = TabCommon & { readonly type: 'signHere' | 'initialHere' | 'signerAttachment'; readonly scaleValue?: number };
/** Filled in by the service when the recipient signs (their name, e-mail, the date). */
export type AutoFilledTab = TextualTab & { readonly type: 'dateSigned' | 'fullName' | 'firstName' | 'lastName' | 'emailAddress' };
/** Free text, with the sender's optional rule. company and title are text with a meaning. */
export type TextTab = TextualTab & {
  readonly type: 'text' | 'company' | 'title' | 'date' | 'email' | 'zip' | 'ssn';
  readonly value: string;
  readonly maxLength: number;
  readonly validation?: { readonly pattern: SafePattern; readonly message?: string };
  /** zip only: ZIP+4 written with its dash (useDash4). */
  readonly useDash4?: boolean;
};
export type NumberTab = TextualTab & {
  readonly type: 'number' | 'numerical';
  readonly value: string;
  readonly maxLength: number;
  readonly locale: NumberLocale;
  readonly min?: number;
  readonly max?: number;
  /** numerical only: Currency allows at most two decimals (and may write its amounts as money: locale.money). */
  readonly validationType?: 'number' | 'currency';
  readonly validation?: { readonly pattern: SafePattern; readonly message?: string };
};
/** The font fields style the check mark's colour and size. */
export type CheckboxTab = TextualTab & { readonly type: 'checkbox'; readonly selected: boolean };
/** One button of a radio group, placed on its own. */
export type Radio = { readonly value: string; readonly selected: boolean; readonly place: TabPlace; readonly locked: boolean; readonly font: TabFont; readonly tabOrder?: number };
/** The group's groupName is the label other tabs (conditions, formulas) name it by. */
export type RadioGroupTab = TabBase & { readonly type: 'radioGroup'; readonly groupName: string; readonly radios: readonly Radio[]; readonly documentId?: string };
export type ListItem = { readonly text: string; readonly value: string };
export type ListTab = TextualTab & { readonly type: 'list'; readonly items: readonly ListItem[]; readonly value: string };
/** Read-only text the sender writes for the signer. */
export type NoteTab = TextualTab & { readonly type: 'note'; readonly value: string };
export type FormulaTab = TextualTab & { readonly type: 'formula'; readonly formula: FormulaNode; readonly formulaText: string; readonly roundDecimalPlaces?: number; readonly hidden: boolean };
/** A button that finishes (approve) or declines the envelope for the signer. */
export type ButtonTab = TextualTab & { readonly type: 'approve' | 'decline'; readonly buttonText?: string; readonly declineReason?: string };
/** A supplemental document the signer must open. */
export type ViewTab = TextualTab & { readonly type: 'view'; readonly buttonText?: string; readonly requiredRead: boolean };

/** A tab as the domain knows it once its wire JSON has been checked. */
export type Tab = SignatureTab | AutoFilledTab | TextTab | NumberTab | CheckboxTab | RadioGroupTab | ListTab | NoteTab | FormulaTab | ButtonTab | ViewTab;
