import { EsignError } from '../../errors.ts';
import type { RecipientType } from './envelope.ts';

type Routed = { readonly recipientId: string; readonly type: RecipientType; readonly routingOrder: number; readonly witnessFor?: string };

/**
 * A witness (docusign-esign src/model/Witness.js: a recipient "whose signature affirms that the
 * identified signers have signed") names by `witnessFor` the signer or in-person signer they
 * watch sign, and signs after them: their routing order comes later, so routing reaches them once
 * that signer is done (routing.ts). Checked whenever the recipients change (create, correction,
 * deletion), so no change leaves a witness before their signer or witnessing nobody.
 */
export function assertWitnesses(recipients: readonly Routed[], after = 'this envelope'): void {
  for (const w of recipients) {
    if (w.type !== 'witness') continue;
    const where = `recipients.witnesses recipientId "${w.recipientId}"`;
    if (w.witnessFor === undefined) throw new EsignError('INVALID_REQUEST_BODY', `${where}: witnessFor is required: name the recipientId of the signer this witness watches sign.`);
    if (w.witnessFor === w.recipientId) throw new EsignError('INVALID_REQUEST_BODY', `${where}: witnessFor names the witness itself; a witness watches another recipient sign.`);
    const signer = recipients.find((r) => r.recipientId === w.witnessFor);
    if (!signer) throw new EsignError('INVALID_REQUEST_BODY', `${where}: witnessFor "${w.witnessFor}" names no recipient of ${after}.`);
    if (signer.type !== 'signer' && signer.type !== 'inPersonSigner') throw new EsignError('INVALID_REQUEST_BODY', `${where}: witnessFor "${w.witnessFor}" is a ${signer.type}, who signs nothing; a witness watches a signer or an in-person signer sign.`);
    if (w.routingOrder <= signer.routingOrder) throw new EsignError('INVALID_REQUEST_BODY', `${where}: routingOrder ${w.routingOrder} must come after routing order ${signer.routingOrder} of the signer they witness (recipientId "${signer.recipientId}"): a witness signs after them.`);
  }
}
