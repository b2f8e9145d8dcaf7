/**
 * What a member is to an envelope of their account: its sender, a recipient (one of its
 * recipients has the member's e-mail: their inbox), or neither.
 */
export type EnvelopeRelation = 'sender' | 'recipient' | 'none';

/**
 * Whose envelopes a member reaches (DocuSign: "Allow view and manage envelope rights through
 * API", allowApiAccessToAccount). With it, every envelope of the account; without it, a member
 * reads the envelopes they sent or received and changes only those they sent, as DocuSign's
 * users see only their own folders. Shared access (docs/esign-shared-access.md) is how one user
 * reaches another's envelopes. Undefined when allowed, else why not.
 */
export function envelopeAccessDenied(relation: EnvelopeRelation, intent: 'read' | 'change'): string | undefined {
  if (relation === 'sender' || (relation === 'recipient' && intent === 'read')) return undefined;
  const why = 'the user\'s permission profile does not reach the account\'s envelopes (allowApiAccessToAccount)';
  return relation === 'recipient'
    ? `The envelope was sent to this user by another, who alone may change it; ${why}.`
    : `The envelope is another user's, and ${why}.`;
}

/** The relation read off an envelope in hand (e-mails ASCII case folded, as logins compare). */
export function relationOf(envelope: { readonly senderUserId: string; readonly recipients: readonly { readonly email: string }[] }, user: { readonly userId: string; readonly email: string }): EnvelopeRelation {
  if (envelope.senderUserId === user.userId) return 'sender';
  const mine = foldAscii(user.email);
  return envelope.recipients.some((r) => foldAscii(r.email) === mine) ? 'recipient' : 'none';
}

function foldAscii(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}
