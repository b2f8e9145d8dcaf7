import type { FastifyInstance } from 'fastify';
import type { EsignContext } from '../context.ts';
import { OAuthError } from '../errors.ts';
import { sha256Hex } from '../security/secret-token.ts';
import { formField } from '../web/form.ts';
import { authenticateClient, readClientCredentials } from './client-authentication.ts';
import { isFormRequest } from './token-endpoint.ts';

/**
 * POST /oauth/revoke (RFC 7009). The client authenticates; a token of another client or an
 * unknown token is answered 200 all the same (§2.2). Revoking a refresh token revokes its
 * grant, access tokens included (§2.1 allows it; it is what a "log out of this app" means).
 */
export function registerRevocationEndpoint(app: FastifyInstance, ctx: EsignContext): void {
  app.post('/oauth/revoke', async (request, reply) => {
    if (!isFormRequest(request.headers['content-type'])) throw new OAuthError('INVALID_REQUEST', 'The body must be application/x-www-form-urlencoded.');
    const client = await authenticateClient(ctx, readClientCredentials(request));
    const token = formField(request.body, 'token');
    if (!token) throw new OAuthError('INVALID_REQUEST', 'The token parameter is missing.');
    const row = await ctx.store.oauth.findToken(sha256Hex(token));
    if (row && row.app_id === client.id) {
      if (row.kind === 'refresh') await ctx.store.oauth.revokeGrant(row.grant_id, ctx.now());
      else await ctx.store.oauth.revokeToken(row.token_hash, ctx.now());
    }
    return reply.header('cache-control', 'no-store').code(200).send();
  });
}
