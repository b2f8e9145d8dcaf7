import type { FastifyRequest } from 'fastify';
import { envelopeAccessDenied } from '../domain/envelope/envelope-access.ts';
import type { EnvelopeStore } from '../domain/envelope/ports.ts';
import { EsignError } from '../errors.ts';

/**
 * The listing filter for the request's user: every envelope of the account when their profile
 * reaches it, else only those they sent or received (the API guard sets `envelopeViewer`).
 */
export function envelopeScope(request: FastifyRequest): { visibleTo?: string } {
  return request.envelopeViewer === null ? {} : { visibleTo: request.envelopeViewer };
}

/**
 * For envelope ids a body names (the guard checks the path's): each must be one the user may
 * change, unless their profile reaches the account's envelopes. Unknown ids are left to the use
 * case, which answers ENVELOPE_DOES_NOT_EXIST as for any.
 */
export async function assertMayChangeEnvelopes(request: FastifyRequest, store: Pick<EnvelopeStore, 'relationOf'>, accountId: string, envelopeIds: readonly string[]): Promise<void> {
  const viewer = request.envelopeViewer;
  if (viewer === null) return;
  for (const id of new Set(envelopeIds)) {
    const relation = await store.relationOf(accountId, id, viewer);
    const denied = relation && envelopeAccessDenied(relation, 'change');
    if (denied) throw new EsignError('USER_LACKS_PERMISSIONS', `envelopeId "${id}": ${denied}`);
  }
}
