import type { PdfInspection, SignerName } from '@signet/pdf';
import { signsDocuments } from '../domain/envelope/recipient-kinds.ts';
import type { AuditEvent } from '../domain/signing/audit-event.ts';
import type { Envelope } from '../domain/envelope/envelope.ts';
import type { Language } from '../domain/language/languages.ts';
import type { VerifyAuditIpMode } from '../domain/account/account-settings.ts';
import { translator } from '../i18n/translator.ts';
import { hashAuditIp } from './audit-ip-hash.ts';

/**
 * verified: a file this deployment sealed, byte for byte, its seal intact.
 * altered: a seal whose bytes no longer match, or something appended after the last signature.
 * unknown: intact or not signed by us, but not a file this deployment handed out.
 * unsigned: no digital seal at all.
 */
export type VerifyStatus = 'verified' | 'altered' | 'unknown' | 'unsigned';

/**
 * The envelope a verified file belongs to, as anyone holding the file may see it: e-mails
 * masked, IPs hidden or, where the account chose so, keyed hashes (audit-ip-hash.ts).
 */
export type EnvelopeSummary = {
  readonly envelopeId: string;
  readonly subject: string;
  readonly sentAt?: string;
  readonly completedAt?: string;
  readonly signers: readonly { readonly name: string; readonly email: string; readonly signedAt?: string }[];
  readonly events: readonly { readonly at: string; readonly action: string; readonly by?: string; readonly ipHash?: string }[];
};

/** How the sealing account shows its audit trail's IPs on /verify (domain/account/account-settings.ts). */
export type AuditIpPolicy = { readonly mode: VerifyAuditIpMode; readonly ipKey?: string };

export type VerifyVerdict = {
  readonly status: VerifyStatus;
  /** One plain sentence for people. */
  readonly message: string;
  readonly sha256: string;
  readonly seal?: {
    readonly intact: boolean;
    readonly sealedBy?: SignerName;
    /** The time the seal claims (the service's clock). */
    readonly sealedAt?: string;
    /** Trusted time from a TSA: a verified file's signature timestamp (never shown for another file). */
    readonly trustedTime?: { readonly time: string; readonly authority?: SignerName };
    readonly level?: string;
    readonly documentTimestamps: number;
  };
  readonly envelope?: EnvelopeSummary;
  /** The language of `message` and of the page: the sealing account's, for a verified file. */
  readonly language?: Language;
};

/** a•••@example.com: enough for the holder to recognise a signer, not to harvest addresses. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email[0] ?? ''}•••${email.slice(at)}`;
}

export function summarise(envelope: Envelope, audit: readonly AuditEvent[], ips: AuditIpPolicy = { mode: 'hidden' }): EnvelopeSummary {
  const key = ips.mode === 'hashed' ? ips.ipKey : undefined;
  return {
    envelopeId: envelope.envelopeId,
    subject: envelope.emailSubject,
    ...(envelope.sentAt ? { sentAt: envelope.sentAt.toISOString() } : {}),
    ...(envelope.completedAt ? { completedAt: envelope.completedAt.toISOString() } : {}),
    signers: envelope.recipients.filter(signsDocuments).map((r) => ({ name: r.name, email: maskEmail(r.email), ...(r.signedAt ? { signedAt: r.signedAt.toISOString() } : {}) })),
    // User agents, and IP addresses unless the account asks for their hashes, stay in the sender's audit trail.
    events: audit.map((e) => ({ at: e.at.toISOString(), action: e.action, ...(e.name ? { by: e.name } : {}), ...(key && e.ipAddress ? { ipHash: hashAuditIp(key, envelope.envelopeId, e.ipAddress) } : {}) })),
  };
}

/**
 * The verdict, from what the file's bytes say and whether this deployment sealed exactly
 * these bytes (`known`). Only a known file gets an envelope; for any other file the answer
 * depends on the file alone, so nothing about any envelope can leak through it.
 */
export function verdictOf(inspection: PdfInspection, known: EnvelopeSummary | undefined, language: Language = 'en'): VerifyVerdict {
  const [seal, ...rest] = inspection.signatures;
  const sha256 = inspection.sha256;
  if (!seal) return { status: 'unsigned', sha256, message: 'This PDF carries no digital seal, so it is not a document sealed by this service.' };
  const last = inspection.signatures.at(-1) ?? seal;
  const intact = inspection.signatures.every((s) => s.intact) && last.coversWholeFile;
  // Trusted time only for a file this deployment sealed: its token came from our TSA and was
  // checked when we asked for it. In anyone else's file nothing says whose token it is.
  const trusted = intact && known && seal.timestamp?.intact ? seal.timestamp : undefined;
  const sealReport = {
    intact,
    ...(seal.signer ? { sealedBy: seal.signer } : {}),
    ...(seal.signingTime ? { sealedAt: seal.signingTime } : {}),
    ...(trusted ? { trustedTime: { time: trusted.time, ...(trusted.authority ? { authority: trusted.authority } : {}) } } : {}),
    ...(inspection.level ? { level: inspection.level } : {}),
    documentTimestamps: rest.filter((s) => s.kind === 'document-timestamp').length,
  };
  if (!intact) {
    return { status: 'altered', sha256, seal: sealReport, message: 'This document has been changed since it was sealed: its seal no longer matches its content.' };
  }
  if (!known) {
    return { status: 'unknown', sha256, seal: sealReport, message: 'This document was not sealed by this service: its seal is not one of ours, or it is not a file we issued.' };
  }
  // A file this deployment sealed: told in the sealing account's language.
  const { t } = translator(language);
  const when = trusted ? t('verify.trustedWhen', { time: trusted.time, authority: trusted.authority?.commonName ?? t('verify.aTimestampAuthority') }) : seal.signingTime ?? t('verify.unrecordedTime');
  return {
    status: 'verified', sha256, seal: sealReport, envelope: known, language,
    message: t('verify.verified.message', { sealer: seal.signer?.commonName ?? t('verify.thisService'), when, envelopeId: known.envelopeId }),
  };
}
