import type { AuthorizationParty, UserAuthorizationView } from '../domain/users/user-authorization.ts';
import { toDocuSignDateTime } from './docusign-date-time.ts';

function party(p: AuthorizationParty, accountId: string): Record<string, string> {
  return { userId: p.userId, accountId, name: p.name, email: p.email };
}

/** DocuSign's UserAuthorization (node_modules/docusign-esign/src/model/UserAuthorization.js). */
export function toWireUserAuthorization(a: UserAuthorizationView): Record<string, unknown> {
  return {
    authorizationId: a.authorizationId,
    principalUser: party(a.principal, a.accountId),
    agentUser: party(a.agent, a.accountId),
    permission: a.permission,
    startDate: toDocuSignDateTime(a.startDate),
    ...(a.endDate !== undefined ? { endDate: toDocuSignDateTime(a.endDate) } : {}),
    created: toDocuSignDateTime(a.created),
    createdBy: a.createdBy,
    modified: toDocuSignDateTime(a.modified),
    modifiedBy: a.modifiedBy,
  };
}
