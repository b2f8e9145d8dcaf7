import type { FastifyInstance } from 'fastify';
import type { EsignContext } from '../context.ts';
import { OAuthError } from '../errors.ts';
import { resolveAccessToken } from './access-token.ts';

/**
 * GET /oauth/userinfo in DocuSign's shape (docusign-esign src/oauth/UserInfo.js, Account.js; DocuSign's
 * "User Info" reference page): snake_case,
 * `is_default` a JSON boolean, `base_uri` = PUBLIC_URL with no trailing slash and no /restapi.
 */
export function registerUserinfoEndpoint(app: FastifyInstance, ctx: EsignContext): void {
  app.get('/oauth/userinfo', async (request, reply) => {
    const principal = await resolveAccessToken(ctx, request.headers.authorization);
    if (typeof principal === 'string') {
      // RFC 6750 §3: say why in WWW-Authenticate.
      reply.header('www-authenticate', principal === 'missing' ? 'Bearer realm="signet"' : 'Bearer realm="signet", error="invalid_token"');
      throw new OAuthError('INVALID_TOKEN');
    }
    const user = await ctx.store.accounts.findUserById(principal.userId);
    if (!user) throw new OAuthError('INVALID_TOKEN');
    const accounts = await ctx.store.accounts.accountsOf(user.id);
    const [given, ...rest] = user.name.split(' ');
    return reply.header('cache-control', 'no-store').send({
      sub: user.id,
      name: user.name,
      given_name: given ?? user.name,
      family_name: rest.join(' '),
      created: user.created_at,
      email: user.email,
      accounts: accounts.map((a) => ({
        account_id: a.accountId,
        is_default: a.isDefault,
        account_name: a.accountName,
        base_uri: ctx.config.publicUrl,
      })),
    });
  });
}
