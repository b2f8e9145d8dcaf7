import type { FastifyInstance } from 'fastify';
import type { EsignContext } from '../context.ts';
import { registerAuthorizationEndpoint } from './authorization-endpoint.ts';
import { registerRevocationEndpoint } from './revocation-endpoint.ts';
import { registerTokenEndpoint } from './token-endpoint.ts';
import { registerUserinfoEndpoint } from './userinfo-endpoint.ts';

/** Registers /oauth/auth, /oauth/token, /oauth/userinfo and /oauth/revoke. */
export function registerOAuthRoutes(app: FastifyInstance, ctx: EsignContext): void {
  registerAuthorizationEndpoint(app, ctx);
  registerTokenEndpoint(app, ctx);
  registerUserinfoEndpoint(app, ctx);
  registerRevocationEndpoint(app, ctx);
}

export { resolveAccessToken, bearerTokenOf, type Principal, type BearerProblem } from './access-token.ts';
