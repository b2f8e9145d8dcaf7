import { EsignError } from '../errors.ts';
import { formField } from '../web/form.ts';

/** What the Finish form carries: the adopted signature (none when nothing was signed), the tabs signed with it, the files attached. */
export type FinishForm = {
  readonly signature?: { readonly kind: 'typed'; readonly text: string } | { readonly kind: 'image'; readonly png: Uint8Array };
  readonly signedTabIds: readonly string[];
  /** Each signer attachment tab's file, as uploaded (its kind is told by attachmentToPdf). */
  readonly attachments: ReadonlyMap<string, Uint8Array>;
};

/** One attached file's bound: a few scanned pages or a phone photo. */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;
const DATA_URL = /^data:[\w.+/-]*(?:;[\w=.+-]+)*;base64,/;

/** A drawn signature is a small canvas PNG; anything larger is not one. */
export const MAX_SIGNATURE_IMAGE_BYTES = 512 * 1024;
export const MAX_TYPED_SIGNATURE = 100;
const PNG_DATA_URL = 'data:image/png;base64,';
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function bad(detail: string): EsignError {
  return new EsignError('INVALID_REQUEST_PARAMETER', detail);
}

/**
 * Reads and checks the Finish form. `requiredTabIds` are the signer's non-optional signature
 * tabs: each must be signed, and only the signer's own signature tabs may be (`allTabIds`). A
 * signer with no signature to give (only form tabs, or an Approve button) finishes without one.
 */
export function parseFinishForm(body: unknown, tabs: { requiredTabIds: readonly string[]; allTabIds: readonly string[]; attachmentTabIds?: readonly string[] }): FinishForm {
  const kind = formField(body, 'signatureKind');
  let signature: FinishForm['signature'];
  const signedTabIds = [...new Set((formField(body, 'signedTabs') ?? '').split(',').map((s) => s.trim()).filter(Boolean))];
  if ((kind === undefined || kind === '') && tabs.requiredTabIds.length === 0 && signedTabIds.length === 0) {
    signature = undefined;
  } else if (kind === 'typed') {
    const text = (formField(body, 'signatureText') ?? '').replace(/\s+/g, ' ').trim();
    if (text === '' || text.length > MAX_TYPED_SIGNATURE) throw bad(`Type your name (1 to ${MAX_TYPED_SIGNATURE} characters) to adopt a signature.`);
    signature = { kind: 'typed', text };
  } else if (kind === 'image') {
    const dataUrl = formField(body, 'signatureImage') ?? '';
    if (!dataUrl.startsWith(PNG_DATA_URL)) throw bad('The drawn signature must be a PNG image.');
    const png = new Uint8Array(Buffer.from(dataUrl.slice(PNG_DATA_URL.length), 'base64'));
    if (png.byteLength > MAX_SIGNATURE_IMAGE_BYTES) throw bad('The drawn signature is too large.');
    if (!PNG_MAGIC.every((b, i) => png[i] === b)) throw bad('The drawn signature is not a PNG image.');
    signature = { kind: 'image', png };
  } else {
    throw bad('Adopt a signature before finishing.');
  }
  const own = new Set(tabs.allTabIds);
  const foreign = signedTabIds.find((id) => !own.has(id));
  if (foreign !== undefined) throw bad(`Tab ${foreign} is not yours to sign.`);
  const signed = new Set(signedTabIds);
  const missing = tabs.requiredTabIds.filter((id) => !signed.has(id));
  if (missing.length > 0) throw bad(`Sign every "Sign here" tab before finishing (${missing.length} left).`);
  return { ...(signature ? { signature } : {}), signedTabIds, attachments: parseAttachments(formField(body, 'attachments') ?? '', tabs.attachmentTabIds ?? []) };
}

/**
 * The attachments field: a JSON object of signer attachment tab id → the file as a data URL.
 * Only the signer's own attachment tabs, each file at most MAX_ATTACHMENT_BYTES; what the file
 * is, is judged from its bytes later (attachmentToPdf), never from the type the page declared.
 */
function parseAttachments(field: string, own: readonly string[]): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  if (field === '') return files;
  let parsed: unknown;
  try {
    parsed = JSON.parse(field);
  } catch {
    throw bad('The attachments are not readable.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw bad('The attachments are not readable.');
  const mine = new Set(own);
  for (const [tabId, value] of Object.entries(parsed)) {
    if (!mine.has(tabId)) throw bad(`Tab ${tabId.slice(0, 64)} is not yours to attach a file to.`);
    if (typeof value !== 'string' || !DATA_URL.test(value)) throw bad('An attachment is not a file.');
    const base64 = value.slice(value.indexOf(',') + 1);
    // Base64 grows by 4/3: refuse before decoding what could not fit.
    if (base64.length > Math.ceil(MAX_ATTACHMENT_BYTES / 3) * 4 + 4) throw bad(`An attached file is larger than ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB.`);
    const bytes = new Uint8Array(Buffer.from(base64, 'base64'));
    if (bytes.byteLength === 0) throw bad('An attached file is empty.');
    if (bytes.byteLength > MAX_ATTACHMENT_BYTES) throw bad(`An attached file is larger than ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB.`);
    files.set(tabId, bytes);
  }
  return files;
}
