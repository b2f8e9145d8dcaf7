import { EsignError } from '../errors.ts';
import { formField } from '../web/form.ts';

/** What the Finish form carries: the adopted signature (none when nothing was signed) and the tabs signed with it. */
export type FinishForm = {
  readonly signature?: { readonly kind: 'typed'; readonly text: string } | { readonly kind: 'image'; readonly png: Uint8Array };
  readonly signedTabIds: readonly string[];
};

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
export function parseFinishForm(body: unknown, tabs: { requiredTabIds: readonly string[]; allTabIds: readonly string[] }): FinishForm {
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
  return { ...(signature ? { signature } : {}), signedTabIds };
}
