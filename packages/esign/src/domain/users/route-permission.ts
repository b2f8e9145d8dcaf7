import type { Rights } from './role-settings.ts';

/** What a request needs of the member's permission profile, beside API access, which every request needs. */
export type Need = 'send' | 'useTemplates' | 'editTemplates' | 'manageAccount' | 'none';

export type RouteRequest = {
  readonly method: string;
  /** The route's pattern after `/restapi/v2.1/accounts/:accountId` ('' for the account itself). */
  readonly route: string;
  /** `:userId` of the path, when it has one. */
  readonly userId?: string | undefined;
  /** The token's user. */
  readonly actorId: string;
};

const READ = new Set(['GET', 'HEAD']);
const SELF_ROUTES = new Set(['/users/:userId', '/users/:userId/profile', '/users/:userId/settings']);

/**
 * The one table of which /restapi route needs which setting (docs/esign-users.md). Reads need
 * nothing beyond API access except where they show other members; writes need the setting of
 * their area. A route outside the table needs account management to write, so a new write
 * route is closed until it is placed here.
 */
export function routeNeed(r: RouteRequest): Need {
  const read = READ.has(r.method);
  const area = r.route.split('/')[1] ?? '';
  switch (area) {
    case '':
    case 'identity_verification':
      return read ? 'none' : 'manageAccount';
    case 'envelopes':
      // listStatus is a PUT that only reads (EnvelopesApi.listStatus).
      if (read || (r.method === 'PUT' && r.route === '/envelopes/status')) return 'none';
      return 'send';
    // Chunked uploads are EnvelopesApi's way to bring documents for sending, and bulk process
    // lists, custom tabs and PowerForms are senders' tools at DocuSign: a sender's to call, though
    // each is refused by name (docs/esign-envelope-operations.md, docs/esign-other-operations.md),
    // so a sender reads why.
    case 'folders':
    case 'search_folders':
    case 'chunked_uploads':
    case 'bulk_send_lists':
    case 'bulk_send_batch':
    case 'bulk_process_data':
    case 'tab_definitions':
    case 'powerforms':
      return read ? 'none' : 'send';
    case 'templates':
      return read ? 'useTemplates' : 'editTemplates';
    case 'views':
      return 'none';
    case 'users':
      // Members see and rename themselves (their user, its profile, its settings); the rest of
      // the user list is the administrators'. What a member may change of themselves is the use
      // case's to check (domain/users/user-use-cases.ts).
      if (r.userId !== undefined && r.userId === r.actorId && (read || r.method === 'PUT') && SELF_ROUTES.has(r.route)) return 'none';
      // User authorizations: the principal themself or an administrator, which the use case
      // checks (domain/users/user-authorization-use-cases.ts); an agent reads their own.
      if (r.route.startsWith('/users/:userId/authorization')) return 'none';
      return 'manageAccount';
    case 'connect':
      return 'manageAccount';
    case 'groups':
    case 'permission_profiles':
    case 'settings':
    case 'brands':
      return read ? 'none' : 'manageAccount';
    default:
      return read ? 'none' : 'manageAccount';
  }
}

/** Why the member may not, in DocuSign's USER_LACKS_PERMISSIONS detail; undefined when they may. */
export function deniedBecause(rights: Rights, need: Need): string | undefined {
  if (!rights.api) return 'The user\'s permission profile does not allow API access (allowApiAccess).';
  switch (need) {
    case 'send':
      return rights.send ? undefined : 'The user\'s permission profile does not allow sending envelopes (allowEnvelopeSending).';
    case 'useTemplates':
      return rights.templates !== 'none' ? undefined : 'The user\'s permission profile does not allow templates (allowedTemplateAccess).';
    case 'editTemplates':
      return rights.templates === 'edit' ? undefined : 'The user\'s permission profile does not allow creating or changing templates (allowedTemplateAccess).';
    case 'manageAccount':
      return rights.manageAccount ? undefined : 'The user\'s permission profile does not allow managing the account (allowAccountManagement).';
    case 'none':
      return undefined;
  }
}
