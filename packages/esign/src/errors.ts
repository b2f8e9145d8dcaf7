import { AppError, type ErrorCatalog } from '@signet/kit';

/**
 * The esign error catalog: the only place an error's status and message are written.
 * REST codes are DocuSign's own (DocuSign "Error codes" reference); console rows use the same shape.
 */
export const ESIGN_ERRORS = {
  INVALID_REQUEST_BODY: { status: 400, message: 'The request body is missing or improperly formatted.' },
  INVALID_REQUEST_PARAMETER: { status: 400, message: 'The request contained at least one invalid parameter.' },
  USER_AUTHENTICATION_FAILED: { status: 401, message: 'One or both of Username and Password are invalid.' },
  AUTHORIZATION_INVALID_TOKEN: { status: 401, message: 'The access token provided is expired, revoked or malformed.' },
  USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT: { status: 400, message: 'The specified User is not a member of the specified Account.' },
  INVALID_EMAIL_ADDRESS: { status: 400, message: 'The e-mail address is invalid.' },
  INVALID_PASSWORD: { status: 400, message: 'The password is invalid.' },
  USER_ALREADY_EXISTS: { status: 409, message: 'A user with this e-mail address already exists.' },
  USER_NOT_FOUND: { status: 404, message: 'No user has this e-mail address.' },
  INVALID_REDIRECT_URI: { status: 400, message: 'The redirect URI is invalid.' },
  INVALID_RSA_PUBLIC_KEY: { status: 400, message: 'The RSA public key is invalid.' },
  APP_NOT_FOUND: { status: 404, message: 'The app does not exist or you have no rights to it.' },
  TOO_MANY_PASSWORD_CHECKS: { status: 429, message: 'Too many sign-in or sign-up attempts from your network right now. Try again in a minute.' },
  TOO_MANY_LOGIN_ATTEMPTS: { status: 429, message: 'Too many failed login attempts for this e-mail address. Try again in 15 minutes.' },
  CSRF_TOKEN_INVALID: { status: 403, message: 'The form has expired or did not come from this site. Reload the page and try again.' },
  // Envelopes (esign II). DocuSign answers 400 for nearly every errorCode (DocuSign "Error codes" reference).
  INVALID_EMAIL_ADDRESS_FOR_RECIPIENT: { status: 400, message: 'The email address for the recipient is invalid. The recipient Id follows.' },
  ENVELOPE_DOES_NOT_EXIST: { status: 400, message: 'The envelope specified either does not exist or you have no rights to it.' },
  DOCUMENT_DOES_NOT_EXIST: { status: 400, message: 'The document specified was not found.' },
  ENVELOPE_IS_INCOMPLETE: { status: 400, message: 'The Envelope is not Complete. A Complete Envelope Requires Documents, Recipients, Tabs, and a Subject Line.' },
  ENVELOPE_INVALID_STATUS: { status: 400, message: 'Invalid envelope status.' },
  // The account's send allowance (store/send-allowance.ts); DocuSign's code for a plan's envelope allowance.
  ENVELOPE_ALLOWANCE_EXCEEDED: { status: 400, message: "The account's sending allowance is used up." },
  // Signing page: the signer's access code (domain/signing/access-code.ts).
  RECIPIENT_AUTHENTICATION_FAILED: { status: 400, message: 'The access code is not correct.' },
  RECIPIENT_AUTHENTICATION_LOCKED: { status: 403, message: 'This recipient is locked out after too many wrong access codes.' },
  // updateRecipients / deleteRecipient(s) on a recipient who has already acted (signed,
  // completed, declined): DocuSign's code and text (EnvelopeRecipients: update); why follows.
  RECIPIENT_UPDATE_FAILED: { status: 400, message: 'The recipient could not be updated.' },
  ENVELOPE_CANNOT_VOID_INVALID_STATE: { status: 400, message: "Only envelopes in the 'Sent' or 'Delivered' states may be voided." },
  ANCHOR_TAB_STRING_NOT_FOUND: { status: 400, message: 'The specified Anchor Tab string was not found in the document.' },
  TAB_PAGENUMBER_IS_NOT_IN_DOCUMENT: { status: 400, message: 'The pagenumber specified in the tab element is not in the document that the tab refers to.' },
  // DocuSign's text as its API returns it (docusign-esign-csharp-client#3); where the tab lies follows.
  TAB_OUT_OF_BOUNDS: { status: 400, message: 'Tab is placed off of the page.' },
  // A tab naming a documentId the envelope lacks (DocuSign's text; which tab and id follow).
  TAB_REFERS_TO_MISSING_DOCUMENT: { status: 400, message: 'The DocumentId specified in the tab element does not refer to a document in this envelope.' },
  // The tab family. INVALID_TAB_OPERATION is DocuSign's own code and text (a tab change the tab
  // does not allow: a locked tab, a read-only type); the other three are ours in DocuSign's
  // style, as its documentation names no code for these cases. Which tab and why follow.
  INVALID_TAB_OPERATION: { status: 400, message: 'The Tab specified is not valid for the requested operation.' },
  INVALID_TAB_VALUE: { status: 400, message: "A tab's value does not satisfy the tab's rules." },
  // A recipient's excludedDocuments names a document they have tabs on (domain/envelope/document-visibility.ts).
  CANNOT_EXCLUDE_DOCUMENT: { status: 400, message: 'This document cannot be excluded for this recipient.' },
  // Signing page: a Finish before a supplemental document was viewed or accepted (domain/envelope/document-supplement.ts); a page error, not a REST one.
  SUPPLEMENT_NOT_ACKNOWLEDGED: { status: 400, message: 'A supplemental document must be viewed or accepted before finishing.' },
  INVALID_VALIDATION_PATTERN: { status: 400, message: "A tab's validationPattern is not a usable regular expression." },
  INVALID_FORMULA: { status: 400, message: "A formula tab's formula is invalid." },
  PDF_VALIDATION_FAILED: { status: 400, message: 'The validation of the PDF file failed.' },
  FORMAT_CONVERSION_ERROR: { status: 400, message: 'The data could not be converted.' },
  // Signing (esign III): createRecipientView names a recipient that is not an embedded signer of the envelope.
  UNKNOWN_ENVELOPE_RECIPIENT: { status: 400, message: 'The recipient you have identified is not a valid recipient of the specified envelope.' },
  // Templates (docs/esign-templates.md). TEMPLATE_ID_INVALID is DocuSign's; the role codes are
  // ours, where DocuSign ignores an unknown role or a repeated role name instead of saying so.
  TEMPLATE_ID_INVALID: { status: 400, message: 'Invalid template ID.' },
  TEMPLATE_ROLE_NOT_FOUND: { status: 400, message: 'A templateRoles entry names a roleName that none of the templates has.' },
  TEMPLATE_ROLE_NAME_DUPLICATE: { status: 400, message: 'Each recipient of a template needs its own roleName.' },
  // Bulk send (docs/esign-bulk-send.md). DocuSign documents the limits (1,000 copies a list, 2,000
  // envelopes queued per account) but no codes for them or for an unknown list or batch: these
  // are ours in its style; what was refused follows.
  BULK_SEND_MAX_COPIES_EXCEEDED: { status: 400, message: 'The bulk send list has too many copies.' },
  BULK_SEND_QUEUE_LIMIT_EXCEEDED: { status: 400, message: "The account's bulk send queue is full; wait for queued envelopes to go out and send again." },
  BULK_SEND_LIST_NOT_FOUND: { status: 404, message: 'The bulk send list does not exist or you have no rights to it.' },
  BULK_SEND_BATCH_NOT_FOUND: { status: 404, message: 'The bulk send batch does not exist or you have no rights to it.' },
  BULK_SEND_ENVELOPE_NOT_SENDABLE: { status: 400, message: 'The envelope cannot be bulk sent with this list.' },
  // Brands (docs/esign-brands.md). DocuSign publishes no code for an unknown brand; ours follows
  // TEMPLATE_ID_INVALID. A logo is refused by its content (domain/brands/check-logo.ts).
  BRAND_ID_INVALID: { status: 400, message: 'Invalid brand ID.' },
  BRAND_LOGO_INVALID: { status: 400, message: 'The logo is not an image this service takes.' },
  // Account settings (docs/esign-account-settings.md): DocuSign's code and text for a member who
  // is not the account's administrator (AccountsApi.updateSettings); what was refused follows.
  ACT_ON_BEHALF_USER_NOT_ALLOWED: { status: 400, message: "An 'Act on Behalf Of' user is not permitted for this operation." },
  USER_LACKS_PERMISSIONS: { status: 400, message: 'This user lacks sufficient permissions to access this resource.' },
  // FoldersApi.moveEnvelopes / listItems on a folder that does not exist: DocuSign's code and
  // text for an unknown folderId (docusign-esign-csharp-client#248); which folder follows.
  ACCOUNT_LACKS_PERMISSIONS: { status: 400, message: 'This Account lacks sufficient permissions. Invalid folder ID.' },
  // Users, groups and permission profiles (docs/esign-users.md). INVALID_USERID is DocuSign's
  // code and text; DocuSign publishes none for an unknown group or profile, for a profile that
  // still has users, or for adding a user who already belongs: ours follow its style. Which one follows.
  INVALID_USERID: { status: 400, message: 'Invalid UserId.' },
  INVALID_GROUP_ID: { status: 400, message: 'Invalid group ID.' },
  INVALID_PERMISSION_PROFILE_ID: { status: 400, message: 'Invalid permission profile ID.' },
  PERMISSION_PROFILE_IN_USE: { status: 400, message: 'The permission profile has users or groups; move them to another profile first (move_users_to).' },
  USER_ALREADY_EXISTS_IN_ACCOUNT: { status: 400, message: 'The user is already a member of the account.' },
  // Shared access (docs/esign-shared-access.md). DocuSign publishes no code for an unknown
  // authorization id or a wrong activation code: ours follow its style; which one follows.
  USER_AUTHORIZATION_NOT_FOUND: { status: 400, message: 'The user authorization does not exist or you have no rights to it.' },
  ACTIVATION_CODE_INVALID: { status: 400, message: 'The activation code is not correct.' },
  RESOURCE_NOT_FOUND: { status: 404, message: 'The URL provided does not resolve to a resource.' },
  // DocuSign's API limits (restapi/api-rate-limit.ts); DocuSign's own text, the limit follows.
  // Ours in DocuSign's style (DocuSign publishes no such limit): docs/esign-connect.md; the limit follows.
  CONNECT_CONFIGURATION_LIMIT_EXCEEDED: { status: 400, message: 'The account has as many Connect configurations as it may have.' },
  HOURLY_APIINVOCATION_LIMIT_EXCEEDED: { status: 429, message: 'The maximum number of hourly API invocations has been exceeded.' },
  BURST_APIINVOCATION_LIMIT_EXCEEDED: { status: 429, message: 'The maximum number of API invocations in a burst window has been exceeded.' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'The service is temporarily unavailable.' },
  CONVERSION_QUEUE_LIMIT_EXCEEDED: { status: 429, message: 'Too many of the account\'s documents are waiting for conversion; send again once they are done.' },
  UNSPECIFIED_ERROR: { status: 500, message: 'An unexpected error occurred.' },
} as const satisfies ErrorCatalog;

export type EsignErrorCode = keyof typeof ESIGN_ERRORS;

/** An error of the DocuSign REST surface and the console: `{errorCode, message}`. */
export class EsignError extends AppError<EsignErrorCode> {
  readonly status: number;
  constructor(code: EsignErrorCode, detail?: string, options?: ErrorOptions) {
    const { status, message } = ESIGN_ERRORS[code];
    super(code, detail ? `${message} ${detail}` : message, options);
    this.status = status;
  }
  toBody(): Record<string, unknown> {
    if (!this.expose) return { errorCode: 'UNSPECIFIED_ERROR', message: ESIGN_ERRORS.UNSPECIFIED_ERROR.message };
    return { errorCode: this.code, message: this.message };
  }
}

/**
 * The OAuth catalog (RFC 6749 §4.1.2.1, §5.2; RFC 6750 §3.1 for invalid_token). The wire
 * `error` is the key in lower case; `consent_required` is DocuSign's JWT-grant code.
 */
export const OAUTH_ERRORS = {
  INVALID_REQUEST: { status: 400, message: 'The request is missing a parameter or is malformed.' },
  INVALID_CLIENT: { status: 401, message: 'Client authentication failed.' },
  INVALID_GRANT: { status: 400, message: 'The grant is invalid, expired, revoked or was issued to another client.' },
  UNAUTHORIZED_CLIENT: { status: 400, message: 'The client is not authorized to use this grant type.' },
  UNSUPPORTED_GRANT_TYPE: { status: 400, message: 'The grant type is not supported.' },
  UNSUPPORTED_RESPONSE_TYPE: { status: 400, message: 'The response type is not supported.' },
  INVALID_SCOPE: { status: 400, message: 'The requested scope is invalid or unknown.' },
  ACCESS_DENIED: { status: 403, message: 'The user denied the request.' },
  CONSENT_REQUIRED: { status: 400, message: 'The user has not granted this app consent.' },
  INVALID_TOKEN: { status: 401, message: 'The access token is expired, revoked or malformed.' },
  SERVER_ERROR: { status: 500, message: 'An unexpected error occurred.' },
} as const satisfies ErrorCatalog;

export type OAuthErrorCode = keyof typeof OAUTH_ERRORS;

/** An error of the /oauth/* surface: `{error, error_description}`. */
export class OAuthError extends AppError<OAuthErrorCode> {
  readonly status: number;
  /** `error_description`: a specific reason when one helps the client (DocuSign's JWT reasons). */
  readonly description: string;
  constructor(code: OAuthErrorCode, description?: string, options?: ErrorOptions) {
    const { status, message } = OAUTH_ERRORS[code];
    super(code, description ?? message, options);
    this.status = status;
    this.description = description ?? message;
  }
  /** The RFC 6749 `error` value. */
  get error(): string {
    return this.code.toLowerCase();
  }
  toBody(): Record<string, unknown> {
    if (!this.expose) return { error: 'server_error', error_description: OAUTH_ERRORS.SERVER_ERROR.message };
    return { error: this.error, error_description: this.description };
  }
}
