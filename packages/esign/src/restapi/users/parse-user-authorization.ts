import type { AuthorizationDates, AuthorizationDraft } from '../../domain/users/user-authorization-use-cases.ts';
import { EsignError } from '../../errors.ts';
import { checkModelFields, type ModelFieldRule } from '../../wire/check-model-fields.ts';
import type { WireReader } from '../../wire/wire-reader.ts';
import { HONOURED, MAX_ITEMS, OUTPUT, modelBody, refused } from './users-wire.ts';


function date(r: WireReader): Date | undefined {
  const text = r.optionalString(40);
  if (text === undefined) return undefined;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? r.fail(`must be a date-time, got "${text}".`) : d;
}

/** UserAuthorizationCreateRequest(WithId) (node_modules/docusign-esign/src/model/UserAuthorizationCreateRequest.js). */
const CREATE_FIELDS: Readonly<Record<string, ModelFieldRule>> = {
  agentUser: HONOURED, permission: HONOURED, startDate: HONOURED, endDate: HONOURED, authorizationId: HONOURED,
  taskSource: refused('task-scoped authorizations are not supported'), taskType: refused('task-scoped authorizations are not supported'),
};
/** AuthorizationUser: who the agent is; name and e-mail are answers, the id names them. */
const AGENT_FIELDS: Readonly<Record<string, ModelFieldRule>> = { userId: HONOURED, accountId: HONOURED, name: OUTPUT, email: OUTPUT };

function draftOf(r: WireReader, withId: boolean): AuthorizationDraft & { authorizationId?: string } {
  checkModelFields(r, withId ? 'UserAuthorizationCreateRequestWithId' : 'UserAuthorizationCreateRequest', withId ? CREATE_FIELDS : { ...CREATE_FIELDS, authorizationId: refused('createUserAuthorization makes a new authorization; change one with updateUserAuthorization') });
  const authorizationId = withId ? r.field('authorizationId').optionalString(100) : undefined;
  const startDate = date(r.field('startDate'));
  const endDate = date(r.field('endDate'));
  if (authorizationId !== undefined) {
    // An item naming an authorization changes its dates; its agent and permission stay.
    for (const name of ['agentUser', 'permission']) if (r.field(name).present) r.field(name).fail('cannot change: an item with authorizationId changes only startDate and endDate.');
    return { authorizationId, agentUserId: '', permission: '', startDate, endDate };
  }
  const agent = r.field('agentUser');
  if (!agent.present) agent.fail('is required.');
  checkModelFields(agent, 'AuthorizationUser', AGENT_FIELDS);
  return {
    agentUserId: agent.field('userId').string(100),
    agentAccountId: agent.field('accountId').optionalString(100),
    permission: r.field('permission').string(20),
    startDate, endDate,
  };
}

/** createUserAuthorization's body. */
export function parseAuthorizationCreate(body: unknown): AuthorizationDraft {
  return draftOf(modelBody(body, 'UserAuthorizationCreateRequest'), false);
}

/** createUserAuthorizations' UserAuthorizationsRequest: `authorizations`, creates and date changes. */
export function parseAuthorizationsRequest(body: unknown): (AuthorizationDraft & { authorizationId?: string })[] {
  const r = modelBody(body, 'UserAuthorizationsRequest');
  const items = r.field('authorizations').items();
  if (items.length === 0) r.field('authorizations').fail('must name at least one authorization.');
  if (items.length > MAX_ITEMS) r.field('authorizations').fail(`may name at most ${MAX_ITEMS} authorizations.`);
  return items.map((item) => draftOf(item, true));
}

/** updateUserAuthorization's UserAuthorizationUpdateRequest: the dates. */
export function parseAuthorizationUpdate(body: unknown): AuthorizationDates {
  const r = modelBody(body, 'UserAuthorizationUpdateRequest');
  checkModelFields(r, 'UserAuthorizationUpdateRequest', { startDate: HONOURED, endDate: HONOURED });
  for (const name of ['agentUser', 'permission']) if (r.field(name).present) r.field(name).fail('cannot change; delete the authorization and create another.');
  const dates = { startDate: date(r.field('startDate')), endDate: date(r.field('endDate')) };
  if (dates.startDate === undefined && dates.endDate === undefined) throw new EsignError('INVALID_REQUEST_BODY', 'UserAuthorizationUpdateRequest names neither startDate nor endDate.');
  return dates;
}

/** deleteUserAuthorizations' UserAuthorizationsDeleteRequest: `authorizations`, a list of ids. */
export function parseAuthorizationIds(body: unknown): string[] {
  const r = modelBody(body, 'UserAuthorizationsDeleteRequest');
  const items = r.field('authorizations').items();
  if (items.length === 0) r.field('authorizations').fail('must name at least one authorization id.');
  if (items.length > MAX_ITEMS) r.field('authorizations').fail(`may name at most ${MAX_ITEMS} authorization ids.`);
  return [...new Set(items.map((i) => i.string(100)))];
}
