import type { FastifyRequest } from 'fastify';
import { deniedBecause, type Need } from '../domain/users/route-permission.ts';
import { EsignError } from '../errors.ts';

/**
 * For what a route's table entry cannot see, because the body decides it (routeNeed checks the
 * route itself, in the API guard): an envelope made from templates needs template use, a recycle
 * bin move that deletes templates needs template editing. The rights are the guard's, the
 * principal's when acting on behalf.
 */
export function assertRight(request: FastifyRequest, need: Need): void {
  // The API guard runs first on every /restapi request; missing rights are a wiring mistake.
  if (!request.rights) throw new EsignError('USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT');
  const denied = deniedBecause(request.rights, need);
  if (denied) throw new EsignError('USER_LACKS_PERMISSIONS', denied);
}
