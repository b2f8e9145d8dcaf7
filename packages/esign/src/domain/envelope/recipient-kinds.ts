import type { Recipient, RecipientType } from './envelope.ts';

/**
 * What each recipient type does, where types share behaviour (DocuSign's recipient types,
 * docusign-esign src/model/Recipients.js): a signer and an in-person signer both sign on the
 * signing page and hold tabs; an in-person signer's mail and link go to their host, who hands
 * over the device (InPersonSigner.hostName/hostEmail). A witness signs too, after the signer they
 * witness (witnesses.ts). A carbon copy only gets a copy.
 */
export function signsDocuments(r: { readonly type: RecipientType }): boolean {
  return r.type === 'signer' || r.type === 'inPersonSigner' || r.type === 'witness';
}

/**
 * Who must act on the signing page before routing goes on: the signers, and a certified
 * delivery, who signs nothing but must open the documents and acknowledge them (DocuSign's
 * CertifiedDelivery model: "must receive the completed documents for the envelope to be
 * completed", without signing or filling anything in). Each gets a signing link, is `sent`
 * when reached and `completed` when done; routing waits for them.
 */
export function actsOnSigningPage(r: { readonly type: RecipientType }): boolean {
  return signsDocuments(r) || r.type === 'certifiedDelivery' || managesRecipients(r);
}

/**
 * The recipients who sign nothing but say who the later recipients are (DocuSign's Agent,
 * Editor and Intermediary models; EnvelopeRecipients: an agent "can add name and email
 * information for recipients that appear after the agent in routing order", an intermediary
 * may but need not, an editor may also change the routing order). Each is mailed a link when
 * reached, acts on the recipients page (signing/recipients-page.ts) and routing waits for
 * them; domain/envelope/manage-recipients.ts says what each may change.
 */
export function managesRecipients(r: { readonly type: RecipientType }): boolean {
  return r.type === 'agent' || r.type === 'editor' || r.type === 'intermediary';
}

/** Who a recipient's mails go to: the host for an in-person signer, else the recipient. */
export function mailAddressee(r: Recipient): { readonly name: string; readonly email: string } {
  return r.host ?? { name: r.name, email: r.email };
}

/**
 * An embedded (captive) recipient: the sender's application shows them the envelope through
 * createRecipientView, so the service mails them nothing about it — no invitation, reminder,
 * void, expiry or completed copy. DocuSign's embedding guide ("Suppressed features and
 * behaviors", "Additional features and behaviors") says the one mail such a recipient gets is
 * sent after they finish signing or viewing, as a guard against someone else acting in their
 * name (mail/templates/finished-embedded-mail.ts).
 */
export function isEmbedded(r: { readonly clientUserId?: string }): boolean {
  return r.clientUserId !== undefined;
}

/** How many of `recipients` get mail (all but the embedded): what sending them spends of the send allowance. */
export function mailedCount(recipients: readonly { readonly clientUserId?: string }[]): number {
  return recipients.filter((r) => !isEmbedded(r)).length;
}
