import type { Kysely } from 'kysely';
import { rightsOf } from '../domain/users/role-settings.ts';
import { EsignError } from '../errors.ts';
import type { Database } from './schema.ts';

/**
 * Inside the caller's transaction, after its writes: the account still has an active member
 * whose profile allows managing it, else the whole write is refused (rolled back), so no change
 * of profiles, groups or members can lock an account out of its own administration.
 */
export async function assertAdminRemains(trx: Kysely<Database>, accountId: string): Promise<void> {
  const rows = await trx.selectFrom('memberships')
    .innerJoin('permission_profiles', 'permission_profiles.id', 'memberships.permission_profile_id')
    .select('permission_profiles.settings')
    .where('memberships.account_id', '=', accountId).where('memberships.status', '=', 'active')
    .execute();
  if (!rows.some((r) => rightsOf(JSON.parse(r.settings) as Record<string, string>).manageAccount)) {
    throw new EsignError('INVALID_REQUEST_PARAMETER', 'The account must keep at least one active user whose permission profile allows managing it (allowAccountManagement).');
  }
}
