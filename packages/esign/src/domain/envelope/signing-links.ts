import type { Envelope, Recipient } from './envelope.ts';
import { actsOnSigningPage, isEmbedded } from './recipient-kinds.ts';
import type { EnvelopeChange, EnvelopeDeps, Notification, Random, SigningTokenRecord } from './ports.ts';

type LinkDeps = Pick<EnvelopeDeps, 'hashSecret'> & { readonly random: Pick<Random, 'secretToken'> };

/**
 * A fresh signing link for one recipient: the bearer secret that goes into the mail, and the
 * record the store keeps of it (only its SHA-256; single purpose: signing).
 */
export function newSigningLink(deps: LinkDeps, envelopeId: string, recipientId: string, now: Date): { token: string; record: SigningTokenRecord } {
  const token = deps.random.secretToken();
  return { token, record: { tokenHash: deps.hashSecret(token), envelopeId, recipientId, purpose: 'signing', createdAt: now } };
}

/**
 * The "your turn" mails for the recipients routing just reached (a send, or a signer finishing
 * an order), as `envelope` now stands. Signers get a personal signing link (an in-person
 * signer's goes to the host); carbon copies get their copy to review. Embedded recipients of
 * any type (clientUserId) get no mail at all: the sender's application shows them the envelope.
 */
export function notifyReached(deps: LinkDeps & Pick<EnvelopeDeps, 'notifier'>, envelope: Envelope, reached: readonly Recipient[], now: Date): Pick<EnvelopeChange, 'mails' | 'signingTokens'> {
  const signingTokens: SigningTokenRecord[] = [];
  const mails = reached.filter((recipient) => !isEmbedded(recipient)).map((recipient) => {
    let notification: Notification = { kind: 'envelope-sent', recipientId: recipient.recipientId };
    if (actsOnSigningPage(recipient)) {
      const link = newSigningLink(deps, envelope.envelopeId, recipient.recipientId, now);
      signingTokens.push(link.record);
      notification = { ...notification, signingToken: link.token };
    }
    return deps.notifier.compose(notification, envelope);
  });
  return { mails, signingTokens };
}
