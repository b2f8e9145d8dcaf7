import { parseSigningFrame, type SigningFrame } from '../../domain/signing/signing-frame.ts';
import { parseReturnUrl } from '../../domain/return-url.ts';
import { EsignError } from '../../errors.ts';

/** The RecipientViewRequest fields embedded signing uses (docusign-esign src/model/RecipientViewRequest.js; createRecipientView in src/api/EnvelopesApi.js). */
export type RecipientViewRequest = {
  readonly returnUrl: string;
  /** Absent only for an in-person signer's host (find-embedded-signer.ts). */
  readonly clientUserId?: string;
  readonly recipientId?: string;
  readonly userName?: string;
  readonly email?: string;
  readonly authenticationMethod?: string;
  /** A focused view: frameAncestors / messageOrigins (domain/signing/signing-frame.ts). */
  readonly frame?: SigningFrame;
};

/** A field by name, matched case-insensitively as DocuSign does (the exact spelling wins). */
function fieldOf(body: Record<string, unknown>, name: string): unknown {
  if (Object.hasOwn(body, name)) return body[name];
  const key = Object.keys(body).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : body[key];
}

/** Wire strings or numbers (docs/esign-envelopes.md, "Routes"): both arrive for ids. */
function str(body: Record<string, unknown>, name: string): string | undefined {
  const v = fieldOf(body, name);
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v.trim() === '' ? undefined : v.trim();
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  throw new EsignError('INVALID_REQUEST_PARAMETER', `'${name}' must be a string.`);
}

/**
 * Checks a createRecipientView body. DocuSign requires returnUrl and the clientUserId the signer
 * was created with (a captive recipient), and identifies the signer by recipientId or by
 * userName and email.
 */
export function parseRecipientViewRequest(body: unknown): RecipientViewRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new EsignError('INVALID_REQUEST_BODY');
  const b = body as Record<string, unknown>;
  const returnUrl = str(b, 'returnUrl');
  if (returnUrl === undefined) throw new EsignError('INVALID_REQUEST_PARAMETER', "'returnUrl' is required.");
  // Required by DocuSign except for an in-person signing, whose host opens the view
  // (signingInPerson example); findEmbeddedSigner refuses anyone else without it.
  const clientUserId = str(b, 'clientUserId');
  const recipientId = str(b, 'recipientId');
  const userName = str(b, 'userName');
  const email = str(b, 'email');
  const authenticationMethod = str(b, 'authenticationMethod');
  if (recipientId === undefined && (userName === undefined || email === undefined)) {
    throw new EsignError('UNKNOWN_ENVELOPE_RECIPIENT', "Name the signer by 'recipientId', or by 'userName' and 'email'.");
  }
  const frame = parseSigningFrame(fieldOf(b, 'frameAncestors'), fieldOf(b, 'messageOrigins'));
  return {
    returnUrl: parseReturnUrl(returnUrl),
    ...(frame ? { frame } : {}),
    ...(clientUserId !== undefined ? { clientUserId } : {}),
    ...(recipientId !== undefined ? { recipientId } : {}),
    ...(userName !== undefined ? { userName } : {}),
    ...(email !== undefined ? { email } : {}),
    ...(authenticationMethod !== undefined ? { authenticationMethod } : {}),
  };
}
