/** Base error class and catalog checks shared by every package. */
export { AppError, assertCatalog, type ErrorCatalog, type ErrorRow } from './app-error.ts';
/** Deadline polling: how code and tests wait for state without fixed sleeps. */
export { pollUntil, type PollOptions } from './poll-until.ts';
/** Private data: a 0700 directory, 0600 files, tightened when they exist with looser modes. */
export { ensurePrivateDir, ensurePrivateFile, writePrivateFile, PrivatePathError } from './private-files.ts';
/** Development and test PKI: a CA (optionally name-constrained) and certificates it issues. */
export { createCertificateAuthority, issueCertificate, type KeyPair, type CertificateRequest, type NameConstraints } from './dev-pki.ts';
/** Debian's headless Chromium through playwright-core, with the flags this network needs. */
export { launchChromium, CHROMIUM_PATH, CHROMIUM_ARGS } from './launch-chromium.ts';
/** A supervised part stops when its supervisor is gone (stdin pipe closed), however it died. */
export { stopWithParent, STOP_WITH_PARENT_ENV } from './stop-with-parent.ts';
/** multipart/form-data bodies read as bounded views (no copies, at most N parts). */
export { boundaryOf, dispositionParams, MultipartError, parseMultipart, type Part } from './parse-multipart.ts';

export { Slots } from './slots.ts';
