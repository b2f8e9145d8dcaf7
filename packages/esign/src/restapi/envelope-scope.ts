import type { FastifyRequest } from 'fastify';

/**
 * The listing filter for the request's user: every envelope of the account when their profile
 * reaches it, else only those they sent or received (the API guard sets `envelopeViewer`;
 * domain/envelope/envelope-access.ts).
 */
export function envelopeScope(request: FastifyRequest): { visibleTo?: string } {
  return request.envelopeViewer === null ? {} : { visibleTo: request.envelopeViewer };
}
