import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppError } from '@signet/kit';
import { errorPage } from './error-page.ts';
import { EsignError, OAuthError } from '../errors.ts';

/** Which dialect a URL's errors speak. */
export type Surface = 'restapi' | 'oauth-json' | 'page';

/** /restapi → DocuSign JSON; the OAuth machine endpoints → RFC 6749 JSON; the rest are HTML pages. */
export function surfaceOf(url: string): Surface {
  const path = url.split('?')[0] ?? '';
  if (path === '/restapi' || path.startsWith('/restapi/')) return 'restapi';
  if (['/oauth/token', '/oauth/userinfo', '/oauth/revoke'].includes(path)) return 'oauth-json';
  return 'page';
}

/** Maps any thrown value to this package's error for the surface; unknown errors become 500s. */
function toAppError(err: unknown, surface: Surface): AppError {
  if (err instanceof EsignError || err instanceof OAuthError) {
    if (surface === 'oauth-json' && err instanceof EsignError) return new OAuthError(err.status >= 500 ? 'SERVER_ERROR' : 'INVALID_REQUEST', err.expose ? err.message : undefined, { cause: err });
    return err;
  }
  const fe = err as Partial<FastifyError>;
  // Fastify's own 4xx (bad JSON, body too large, bad content type): the client's mistake.
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return surface === 'oauth-json' ? new OAuthError('INVALID_REQUEST', fe.message, { cause: err }) : new EsignError('INVALID_REQUEST_BODY', undefined, { cause: err });
  }
  return surface === 'oauth-json' ? new OAuthError('SERVER_ERROR', undefined, { cause: err }) : new EsignError('UNSPECIFIED_ERROR', undefined, { cause: err });
}

function send(reply: FastifyReply, error: AppError, surface: Surface) {
  if (surface === 'page') {
    const message = error.expose ? error.message : 'An unexpected error occurred.';
    return reply.code(error.status).type('text/html; charset=utf-8').header('cache-control', 'no-store')
      .send(errorPage(error.status === 404 ? 'Not found' : 'Something went wrong', message));
  }
  if (error instanceof OAuthError && error.code === 'INVALID_CLIENT') {
    // RFC 6749 §5.2: a 401 invalid_client carries the challenge for the scheme the client used.
    reply.header('www-authenticate', 'Basic realm="signet"');
  }
  // toBody() already replaces 5xx details with the catalog's generic row: no stack, no message.
  return reply.code(error.status).header('cache-control', 'no-store').send(error.toBody());
}

/**
 * Fastify's `frameworkErrors`: what its router refuses before any route runs (a URL that does
 * not decode, a path parameter over maxParamLength) answered in the surface's shape, not
 * Fastify's own `{error, code, statusCode}`.
 */
export function answerFrameworkError(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const surface = surfaceOf(request.url);
  const error = surface === 'oauth-json' ? new OAuthError('INVALID_REQUEST', err.message, { cause: err }) : new EsignError(surface === 'restapi' ? 'INVALID_REQUEST_PARAMETER' : 'RESOURCE_NOT_FOUND', undefined, { cause: err });
  void send(reply, error, surface);
}

/** One error handler and one not-found handler for the whole server. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const surface = surfaceOf(request.url);
    const error = toAppError(err, surface);
    if (!error.expose) request.log.error({ err }, 'request failed');
    return send(reply, error, surface);
  });
  app.setNotFoundHandler((request, reply) => {
    const surface = surfaceOf(request.url);
    const error = surface === 'oauth-json' ? new OAuthError('INVALID_REQUEST', 'No such endpoint.') : new EsignError('RESOURCE_NOT_FOUND');
    return send(reply, error, surface);
  });
}
