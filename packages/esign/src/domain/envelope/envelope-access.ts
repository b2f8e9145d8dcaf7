import { EsignError } from '../../errors.ts';
import type { EnvelopeStore } from './ports.ts';

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

/**
 * For envelope ids a body names (the API guard checks the path's): each must be one `viewer`
 * may change; `viewer` null when their profile reaches the account's envelopes. Unknown ids are
 * left to the use case, which answers ENVELOPE_DOES_NOT_EXIST as for any.
 */
export async function assertMayChangeEnvelopes(store: Pick<EnvelopeStore, 'relationOf'>, accountId: string, viewer: string | null, envelopeIds: readonly string[]): Promise<void> {
  if (viewer === null) return;
  for (const id of new Set(envelopeIds)) {
    const relation = await store.relationOf(accountId, id, viewer);
    const denied = relation && envelopeAccessDenied(relation, 'change');
    if (denied) throw new EsignError('USER_LACKS_PERMISSIONS', `envelopeId "${id}": ${denied}`);
  }
}
