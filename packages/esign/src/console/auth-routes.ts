import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EsignContext } from '../context.ts';
import { normalizeEmail } from '../domain/email-address.ts';
import { isLocked } from '../domain/login-throttle.ts';
import { EsignError } from '../errors.ts';
import { hashPassword, verifyPassword } from '../security/password-hash.ts';
import { sha256Hex } from '../security/secret-token.ts';
import { requestSignup } from '../use-cases/request-signup.ts';
import { AdmissionLimiter } from '../web/admission-limiter.ts';
import { clientIp } from '../web/client-ip.ts';
import { assertCsrf, csrfTokenFor } from '../web/csrf.ts';
import { formField } from '../web/form.ts';
import { endSession, startSession } from '../web/session.ts';
import { loginPage } from '../web/login-page.ts';
import { signupLinkInvalidPage, signupPage, signupSentPage, signupVerifyPage } from './pages.ts';
import { safeReturnPath } from './safe-return-path.ts';

const HTML = 'text/html; charset=utf-8';

/** How many password checks (login, sign-up, sign-up confirmation) a client may start. */
export type PasswordCheckLimits = { perMinute: number; perClient: number; inFlight: number };

/**
 * Each check is a 32 MiB scrypt of ~0.1 s of a core: 32 anonymous logins at once from one
 * address held a real user's login for 4.5 s. Per address (an IPv6 /64), 60 a minute and 4 at
 * once; 8 at once in all.
 */
const PASSWORD_CHECK_LIMITS: PasswordCheckLimits = { perMinute: 60, perClient: 4, inFlight: 8 };

/** Sign-up, login and logout pages. */
export function registerAuthRoutes(app: FastifyInstance, ctx: EsignContext, limits: PasswordCheckLimits = PASSWORD_CHECK_LIMITS): void {
  const checks = new AdmissionLimiter({ perWindow: limits.perMinute, windowMs: 60_000, perClient: limits.perClient, inFlight: limits.inFlight });
  // Admitted before the handler's work; the place is freed with the answer, or when the client
  // goes. Route hooks of the three routes that check a password, not hooks of every request.
  const admitted = new WeakMap<FastifyRequest, () => void>();
  const release = (request: FastifyRequest, done: () => void) => {
    admitted.get(request)?.();
    admitted.delete(request);
    done();
  };
  const passwordCheck = {
    preHandler: async (request: FastifyRequest, reply: FastifyReply) => {
      const slot = checks.admit(clientIp(request.socket.remoteAddress, request.headers['x-forwarded-for']) ?? 'unknown');
      if (!slot.ok) {
        const failure = new EsignError('TOO_MANY_PASSWORD_CHECKS');
        return reply.code(failure.status).header('retry-after', String(slot.retryAfterS)).type(HTML).header('cache-control', 'no-store')
          .send(loginPage({ csrf: csrfTokenFor(ctx, request, reply), returnTo: '/console', error: failure.message }));
      }
      admitted.set(request, slot.release);
    },
    onResponse: (request: FastifyRequest, _reply: FastifyReply, done: () => void) => release(request, done),
    onRequestAbort: (request: FastifyRequest, done: () => void) => release(request, done),
  };

  // A hash to verify against when the e-mail is unknown, so both failures take scrypt's time
  // and the response time does not tell which e-mails are registered.
  let decoyHash: Promise<string> | undefined;
  const decoy = (): Promise<string> => (decoyHash ??= hashPassword('decoy password, never valid', ctx.passwordHashCost));

  app.get('/login', async (request, reply) => {
    const returnTo = safeReturnPath(formField(request.query, 'return_to'));
    return reply.type(HTML).header('cache-control', 'no-store').send(loginPage({ csrf: csrfTokenFor(ctx, request, reply), returnTo }));
  });

  app.post('/login', passwordCheck, async (request, reply) => {
    assertCsrf(request);
    const returnTo = safeReturnPath(formField(request.body, 'return_to'));
    const rawEmail = formField(request.body, 'email') ?? '';
    const password = formField(request.body, 'password') ?? '';
    const refuse = (failure: EsignError) =>
      reply.code(failure.status).type(HTML).header('cache-control', 'no-store')
        .send(loginPage({ csrf: csrfTokenFor(ctx, request, reply), returnTo, email: rawEmail, error: failure.message }));
    let email: string | undefined;
    try {
      email = normalizeEmail(rawEmail);
    } catch (err) {
      if (!(err instanceof EsignError)) throw err;
    }
    // Every attempt counts before the password is checked (a success clears the count), so
    // parallel guesses cannot all pass the lock while scrypt runs, and a locked address costs no
    // scrypt. Unknown addresses count too: the answer must not tell which addresses exist.
    const attempt = email === undefined ? undefined : await ctx.store.loginFailures.recordAttempt(email, ctx.now());
    if (attempt && !attempt.allowed) return refuse(new EsignError('TOO_MANY_LOGIN_ATTEMPTS'));
    const user = email === undefined ? undefined : await ctx.store.accounts.findUserByEmail(email);
    // An invited user who has not set a password yet (password_hash empty) costs the same scrypt.
    const ok = await verifyPassword(password, user?.password_hash || (await decoy()));
    if (!user || !ok) {
      return refuse(new EsignError(isLocked(attempt?.state, ctx.now()) ? 'TOO_MANY_LOGIN_ATTEMPTS' : 'USER_AUTHENTICATION_FAILED'));
    }
    await ctx.store.loginFailures.clear(user.email);
    await startSession(ctx, reply, user.id);
    return reply.redirect(returnTo, 303);
  });

  app.post('/logout', async (request, reply) => {
    assertCsrf(request);
    await endSession(ctx, request, reply);
    const returnTo = formField(request.body, 'return_to');
    return reply.redirect(returnTo === undefined ? '/login' : safeReturnPath(returnTo, '/login'), 303);
  });

  app.get('/signup', async (request, reply) => {
    return reply.type(HTML).header('cache-control', 'no-store').send(signupPage({ csrf: csrfTokenFor(ctx, request, reply) }));
  });

  app.post('/signup', passwordCheck, async (request, reply) => {
    assertCsrf(request);
    const email = formField(request.body, 'email') ?? '';
    const name = formField(request.body, 'name') ?? '';
    try {
      const requested = await requestSignup(ctx.store, { email, name, password: formField(request.body, 'password') ?? '', now: ctx.now(), publicUrl: ctx.config.publicUrl, passwordHashCost: ctx.passwordHashCost });
      return await reply.type(HTML).header('cache-control', 'no-store').send(signupSentPage(requested));
    } catch (err) {
      if (!(err instanceof EsignError) || !err.expose) throw err;
      return reply.code(err.status).type(HTML).header('cache-control', 'no-store')
        .send(signupPage({ csrf: csrfTokenFor(ctx, request, reply), email, name, error: err.message }));
    }
  });

  // The e-mailed link. Its token is checked before anything else and only its hash is stored.
  const pendingSignup = (token: string) => (/^[A-Za-z0-9_-]{43}$/.test(token) ? ctx.store.signups.findPending(sha256Hex(token), ctx.now()) : Promise.resolve(undefined));
  const invalidLink = (reply: FastifyReply) => reply.code(404).type(HTML).header('cache-control', 'no-store').send(signupLinkInvalidPage());

  app.get<{ Params: { token: string } }>('/signup/verify/:token', async (request, reply) => {
    const pending = await pendingSignup(request.params.token);
    if (!pending) return invalidLink(reply);
    return reply.type(HTML).header('cache-control', 'no-store').header('referrer-policy', 'no-referrer')
      .send(signupVerifyPage({ csrf: csrfTokenFor(ctx, request, reply), action: request.url, email: pending.email }));
  });

  app.post<{ Params: { token: string } }>('/signup/verify/:token', passwordCheck, async (request, reply) => {
    assertCsrf(request);
    const pending = await pendingSignup(request.params.token);
    if (!pending) return invalidLink(reply);
    // The password chosen at sign-up proves the link's user is who signed up: someone who
    // signed up with another person's address cannot have them create the account with the
    // intruder's password. Guesses count against the address like logins.
    const attempt = await ctx.store.loginFailures.recordAttempt(pending.email, ctx.now());
    const refuse = (failure: EsignError) => reply.code(failure.status).type(HTML).header('cache-control', 'no-store')
      .send(signupVerifyPage({ csrf: csrfTokenFor(ctx, request, reply), action: request.url, email: pending.email, error: failure.message }));
    if (!attempt.allowed) return refuse(new EsignError('TOO_MANY_LOGIN_ATTEMPTS'));
    if (!(await verifyPassword(formField(request.body, 'password') ?? '', pending.passwordHash))) {
      return refuse(new EsignError(isLocked(attempt.state, ctx.now()) ? 'TOO_MANY_LOGIN_ATTEMPTS' : 'USER_AUTHENTICATION_FAILED'));
    }
    await ctx.store.loginFailures.clear(pending.email);
    const created = await ctx.store.signups.complete(sha256Hex(request.params.token), ctx.now());
    if (created === 'invalid') return invalidLink(reply);
    if (created === 'exists') return reply.redirect('/login', 303);
    await startSession(ctx, reply, created.userId);
    return reply.redirect('/console', 303);
  });
}
