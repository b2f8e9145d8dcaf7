import { parseReturnUrl } from '../../domain/return-url.ts';
import { EsignError } from '../../errors.ts';
import { WireReader } from '../../wire/wire-reader.ts';

/**
 * What the sender/edit view may be asked for (docusign-esign src/model/EnvelopeViewRequest.js
 * and EnvelopeViewSettings.js with its nested *Settings models). Our page reviews a draft and
 * sends it (docs/esign-views.md): every setting that would show something the page does not
 * have is refused by name when asked for; one that hides it, or asks for what the page does, is
 * accepted. A setting that only configures a feature the page never shows (`unshown`) is
 * accepted with any well-formed value, and its `why` says why nothing is lost. Unknown fields
 * are ignored, as DocuSign ignores them.
 */
type SettingRule =
  | { readonly kind: 'falseOnly'; readonly why: string }
  | { readonly kind: 'oneOf'; readonly values: readonly string[]; readonly why: string }
  | { readonly kind: 'emptyOnly'; readonly why: string }
  | { readonly kind: 'unshown'; readonly shape: 'boolean' | 'object'; readonly why: string }
  | { readonly kind: 'nested'; readonly rules: Readonly<Record<string, SettingRule>> };

const NO_EDITING = 'the sender view reviews and sends the draft as the API built it; edit it through the API';
const NO_TAGGER = 'the tagger (placing fields in the browser) is not offered; place tabs through the API, by anchor or position';
const SETTINGS: Readonly<Record<string, SettingRule>> = {
  // DocuSign's starting screens: "Tagger" (its default) or "Prepare" (recipients and documents), which is this page.
  startingScreen: { kind: 'oneOf', values: ['prepare'], why: NO_TAGGER },
  sendButtonAction: { kind: 'oneOf', values: ['send', 'redirect'], why: 'Send either sends, or returns to the app with event=Send' },
  showBackButton: { kind: 'falseOnly', why: 'the page has no back button; "Save and close" returns to the app' },
  backButtonAction: { kind: 'oneOf', values: ['previouspage', 'redirect'], why: 'the page has no back button' },
  showHeaderActions: { kind: 'falseOnly', why: 'the page has no header actions' },
  showDiscardAction: { kind: 'falseOnly', why: 'the page has no discard action; delete the draft through the API' },
  showAdvancedOptions: { kind: 'falseOnly', why: 'the page has no advanced options' },
  showSignNow: { kind: 'falseOnly', why: 'the sender cannot sign from the sender view' },
  lockToken: { kind: 'emptyOnly', why: 'envelope locks are not supported' },
  recipientSettings: { kind: 'nested', rules: { showEditRecipients: { kind: 'falseOnly', why: NO_EDITING }, showContactsList: { kind: 'falseOnly', why: 'there is no contacts list' }, showEditMessage: { kind: 'falseOnly', why: NO_EDITING }, showBulkSend: { kind: 'falseOnly', why: 'the console has no bulk send page (bulk send is an API: docs/esign-bulk-send.md)' } } },
  documentSettings: { kind: 'nested', rules: { showEditDocuments: { kind: 'falseOnly', why: NO_EDITING }, showEditDocumentVisibility: { kind: 'falseOnly', why: NO_EDITING }, showEditPages: { kind: 'falseOnly', why: NO_EDITING }, showSaveAsDocumentCustomField: { kind: 'falseOnly', why: NO_EDITING } } },
  // The tagger's palette (paletteSections, paletteDefault, paletteSettings). DocuSign's
  // embeddedSending example sends it whichever screen it starts on. The page never shows a
  // tagger, so the palette configures nothing the sender could see; it is accepted only with
  // startingScreen "Prepare" (parseSenderViewRequest): without one, DocuSign starts on the tagger.
  taggerSettings: { kind: 'unshown', shape: 'object', why: 'the page never shows a tagger, so its palette configures nothing' },
  envelopeCustomFieldSettings: { kind: 'nested', rules: { showEnvelopeCustomFields: { kind: 'falseOnly', why: NO_EDITING } } },
  // DocuSign's prompt offering the account's templates that match the draft's documents.
  // Documents are never matched against templates here, so there is never a match to offer,
  // whichever the value: the page behaves as DocuSign's does when no template matches.
  templateSettings: { kind: 'nested', rules: { showMatchingTemplatesPrompt: { kind: 'unshown', shape: 'boolean', why: 'documents are never matched against templates, so there is no prompt to show' } } },
};

/** Without a returnUrl, the page's Send and "Save and close" stay in the console. */
export type SenderViewRequest = { readonly returnUrl?: string; readonly sendButtonAction: 'send' | 'redirect' };
export type ConsoleViewRequest = { readonly returnUrl?: string; readonly envelopeId?: string };

/** The optional returnUrl, checked as every view's (domain/return-url.ts). */
function returnUrlOf(body: WireReader): string | undefined {
  const raw = body.field('returnUrl').optionalString(2000);
  return raw === undefined ? undefined : parseReturnUrl(raw);
}

function isFalse(value: unknown): boolean {
  return value === false || (typeof value === 'string' && value.trim().toLowerCase() === 'false');
}

function isBoolean(value: unknown): boolean {
  return typeof value === 'boolean' || (typeof value === 'string' && ['true', 'false'].includes(value.trim().toLowerCase()));
}

const isEmpty = (value: unknown): boolean => value === '' || (typeof value === 'object' && value !== null && Object.keys(value).length === 0);
const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every asked-for setting the page cannot honour, as "path (why)". */
function refusedSettings(reader: WireReader, rules: Readonly<Record<string, SettingRule>>, out: string[]): void {
  const object = reader.object();
  if (object === undefined) return;
  for (const [name, rule] of Object.entries(rules)) {
    const field = reader.field(name);
    if (!field.present) continue;
    const value = field.value;
    if (rule.kind === 'nested') {
      refusedSettings(field, rule.rules, out);
      continue;
    }
    if (rule.kind === 'unshown') {
      // Any value the model allows; a malformed one is named with what it should be.
      const wellFormed = rule.shape === 'boolean' ? isBoolean(value) : isObject(value);
      if (!wellFormed) out.push(`${field.path} ${JSON.stringify(value)} (must be ${rule.shape === 'boolean' ? 'true or false' : 'an object'})`);
      continue;
    }
    const ok = rule.kind === 'falseOnly' ? isFalse(value)
      : rule.kind === 'emptyOnly' ? isEmpty(value)
        : typeof value === 'string' && rule.values.includes(value.trim().toLowerCase());
    if (!ok) out.push(`${field.path} ${JSON.stringify(value)} (${rule.why})`);
  }
}

/**
 * createSenderView / createEditView: EnvelopeViewRequest (or the older ReturnUrlRequest,
 * returnUrl only). No body at all is accepted: docusign-esign 10 sends none when called as
 * older versions of DocuSign's embeddedSending example called it (`{returnUrlRequest}`, a name
 * it no longer reads); the current one sends an EnvelopeViewRequest with settings.
 */
export function parseSenderViewRequest(body: unknown): SenderViewRequest {
  if (body === undefined || body === null || body === '') return { sendButtonAction: 'send' };
  if (typeof body !== 'object' || Array.isArray(body)) throw new EsignError('INVALID_REQUEST_BODY', 'The body must be an EnvelopeViewRequest.');
  const reader = new WireReader('', body);
  const returnUrl = returnUrlOf(reader);
  const access = reader.field('viewAccess').optionalString(50);
  const problems: string[] = [];
  if (access !== undefined && access.toLowerCase() !== 'envelope') problems.push(`viewAccess "${access}" (only the envelope view is offered)`);
  const settings = reader.field('settings');
  refusedSettings(settings, SETTINGS, problems);
  // A tagger's palette without a starting screen asks for DocuSign's default, the tagger itself.
  const tagger = settings.field('taggerSettings');
  const start = settings.field('startingScreen');
  if (isObject(tagger.value) && !isEmpty(tagger.value) && (!start.present || isEmpty(start.value))) {
    problems.push(`${tagger.path} ${JSON.stringify(tagger.value)} without startingScreen (DocuSign then starts on the tagger, which is not offered: set startingScreen "Prepare")`);
  }
  if (problems.length > 0) throw new EsignError('INVALID_REQUEST_BODY', `EnvelopeViewRequest: not supported: ${problems.join('; ')}.`);
  const action = settings.field('sendButtonAction').optionalString(20)?.toLowerCase();
  return { ...(returnUrl !== undefined ? { returnUrl } : {}), sendButtonAction: action === 'redirect' ? 'redirect' : 'send' };
}

/** createConsoleView: ConsoleViewRequest {returnUrl, envelopeId?}. */
export function parseConsoleViewRequest(body: unknown): ConsoleViewRequest {
  if (body === undefined || body === null || body === '') return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new EsignError('INVALID_REQUEST_BODY', 'The body must be a ConsoleViewRequest.');
  const reader = new WireReader('', body);
  const returnUrl = returnUrlOf(reader);
  const envelopeId = reader.field('envelopeId').optionalString(100);
  return { ...(returnUrl !== undefined ? { returnUrl } : {}), ...(envelopeId !== undefined ? { envelopeId } : {}) };
}

/**
 * createCorrectView: CorrectViewRequest {returnUrl, beginOnTagger, suppressNavigation, viewUrl}.
 * The page corrects recipients' names and addresses; it has no tagger and no navigation to hide.
 */
export function parseCorrectViewRequest(body: unknown): { readonly returnUrl?: string } {
  if (body === undefined || body === null || body === '') return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new EsignError('INVALID_REQUEST_BODY', 'The body must be a CorrectViewRequest.');
  const reader = new WireReader('', body);
  const problems: string[] = [];
  const tagger = reader.field('beginOnTagger');
  if (tagger.present && !isFalse(tagger.value)) problems.push(`beginOnTagger ${JSON.stringify(tagger.value)} (the tagger is not offered: correct tabs with updateTabs)`);
  const nav = reader.field('suppressNavigation');
  if (nav.present && !isFalse(nav.value)) problems.push(`suppressNavigation ${JSON.stringify(nav.value)} (the console page keeps its header)`);
  if (reader.field('viewUrl').optionalString(2000) !== undefined) problems.push('viewUrl (the view URL is the answer, not a request field)');
  if (problems.length > 0) throw new EsignError('INVALID_REQUEST_BODY', `CorrectViewRequest: not supported: ${problems.join('; ')}.`);
  const returnUrl = returnUrlOf(reader);
  return returnUrl !== undefined ? { returnUrl } : {};
}
