import type { FastifyInstance } from 'fastify';
import type { EsignContext } from '../context.ts';
import { OAuthError } from '../errors.ts';
import { fieldRepeated, formField } from '../web/form.ts';
import { authenticateClient, readClientCredentials } from './client-authentication.ts';
import { authorizationCodeGrant } from './grants/authorization-code-grant.ts';
import { JWT_BEARER, jwtBearerGrant } from './grants/jwt-bearer-grant.ts';
import { refreshTokenGrant } from './grants/refresh-token-grant.ts';

/** True when the request body came as application/x-www-form-urlencoded (RFC 6749 §4.1.3). */
export function isFormRequest(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

/** POST /oauth/token: authorization_code, refresh_token and the JWT bearer grant. */
export function registerTokenEndpoint(app: FastifyInstance, ctx: EsignContext): void {
  app.post('/oauth/token', async (request, reply) => {
    if (!isFormRequest(request.headers['content-type'])) {
      throw new OAuthError('INVALID_REQUEST', 'The body must be application/x-www-form-urlencoded.');
    }
    for (const name of ['grant_type', 'code', 'refresh_token', 'assertion', 'redirect_uri', 'code_verifier', 'scope']) {
      if (fieldRepeated(request.body, name)) throw new OAuthError('INVALID_REQUEST', `The ${name} parameter is repeated.`);
    }
    const grantType = formField(request.body, 'grant_type');
    let response;
    switch (grantType) {
      case 'authorization_code':
        response = await authorizationCodeGrant(ctx, await authenticateClient(ctx, readClientCredentials(request)), request.body);
        break;
      case 'refresh_token':
        response = await refreshTokenGrant(ctx, await authenticateClient(ctx, readClientCredentials(request)), request.body);
        break;
      case JWT_BEARER:
        response = await jwtBearerGrant(ctx, request.body);
        break;
      case undefined:
        throw new OAuthError('INVALID_REQUEST', 'The grant_type parameter is missing.');
      default:
        throw new OAuthError('UNSUPPORTED_GRANT_TYPE', `grant_type ${grantType} is not supported.`);
    }
    // RFC 6749 §5.1: token responses must not be cached.
    return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(response);
  });
}
