import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { EsignContext } from '../../context.ts';
import type { UserDeps } from '../../domain/users/user-use-cases.ts';
import { invitationMail } from '../../mail/templates/invitation-mail.ts';
import { hashPassword } from '../../security/password-hash.ts';
import { newSecretToken, sha256Hex } from '../../security/secret-token.ts';
import { GroupsRepository } from '../../store/groups-repository.ts';
import { MembersRepository } from '../../store/members-repository.ts';
import { PermissionProfilesRepository } from '../../store/permission-profiles-repository.ts';
import { UserAuthorizationsRepository } from '../../store/user-authorizations-repository.ts';
import { registerAuthorizationRoutes } from './authorization-routes.ts';
import { registerGroupRoutes } from './group-routes.ts';
import { registerProfileRoutes } from './profile-routes.ts';
import { registerUserProfileRoutes } from './user-profile-routes.ts';
import { registerUserRoutes } from './user-routes.ts';

/** Users, groups, permission profiles (docs/esign-users.md) and user authorizations (docs/esign-shared-access.md): repositories and routes. */
export function installUserAdmin(app: FastifyInstance, ctx: EsignContext): void {
  const profiles = new PermissionProfilesRepository(ctx.store.db);
  const members = new MembersRepository(ctx.store.db, ctx.config.sendAllowance);
  const groups = new GroupsRepository(ctx.store.db);
  registerProfileRoutes(app, { profiles, clock: ctx.now });
  registerAuthorizationRoutes(app, { authorizations: new UserAuthorizationsRepository(ctx.store.db), clock: ctx.now, uuid: randomUUID });
  registerGroupRoutes(app, { profiles, members, groups, clock: ctx.now, uuid: randomUUID });
  const userDeps: UserDeps = {
    profiles, members, groups, clock: ctx.now,
    newToken: () => {
      const token = newSecretToken();
      return { token, hash: sha256Hex(token) };
    },
    hashActivationCode: (code) => hashPassword(code, ctx.passwordHashCost),
    invitationMail: ({ token, ...rest }) => invitationMail({ ...rest, acceptUrl: `${ctx.config.publicUrl}/invitations/${token}` }),
  };
  registerUserRoutes(app, { ...userDeps, accountName: async (accountId) => (await ctx.store.accounts.findAccount(accountId))?.name ?? '' });
  registerUserProfileRoutes(app, userDeps);
}
