// What every authentication plugin does once it knows who is calling (their set_consumer):
// record the consumer and credential, and tell the upstream with Kong's X-Consumer-* headers.
import type { Consumer } from '../declarative/types.ts';
import type { AuthenticatedCredential, PluginContext, PluginExit } from './plugin-context.ts';
import type { ConsumerIndex } from './consumer-index.ts';

/** Authenticates the request as `consumer` (with `credential`, or as the anonymous consumer without). */
export function setConsumer(ctx: PluginContext, consumer: Consumer | undefined, credential: AuthenticatedCredential | undefined): void {
  ctx.authenticate(consumer, credential);
  if (consumer !== undefined) ctx.setHeader('X-Consumer-ID', consumer.id);
  else ctx.clearHeader('X-Consumer-ID');
  if (consumer?.custom_id != null) ctx.setHeader('X-Consumer-Custom-ID', consumer.custom_id);
  else ctx.clearHeader('X-Consumer-Custom-ID');
  if (consumer?.username != null) ctx.setHeader('X-Consumer-Username', consumer.username);
  else ctx.clearHeader('X-Consumer-Username');
  if (credential !== undefined) ctx.setHeader('X-Credential-Identifier', credential.identifier);
  else ctx.clearHeader('X-Credential-Identifier');
  if (credential !== undefined) ctx.clearHeader('X-Anonymous-Consumer');
  else ctx.setHeader('X-Anonymous-Consumer', 'true');
}

/**
 * Failed authentication with `anonymous` set (logical OR between auth plugins): continue as the
 * anonymous consumer, or Kong's 500 when it does not exist.
 */
export function setAnonymousConsumer(ctx: PluginContext, consumers: ConsumerIndex, anonymous: string): PluginExit | undefined {
  const consumer = consumers.consumerByIdOrUsername(anonymous);
  if (consumer === undefined) return { status: 500, message: `anonymous consumer ${anonymous} is configured but doesn't exist` };
  setConsumer(ctx, consumer, undefined);
  return undefined;
}

/**
 * The access phase of an authentication plugin with Kong's `anonymous` (logical OR between auth
 * plugins): without it, the plugin's own verdict; with it, a request another auth plugin has
 * already authenticated passes untouched, and a failed one goes on as the anonymous consumer.
 */
export function authAccess<R extends PluginExit | undefined | Promise<PluginExit | undefined>>(
  consumers: ConsumerIndex, anonymous: string | null, authenticate: (ctx: PluginContext) => R,
): (ctx: PluginContext) => R | PluginExit | undefined {
  return (ctx) => {
    if (anonymous === null) return authenticate(ctx);
    if (ctx.credential !== undefined) return undefined;
    const verdict = authenticate(ctx);
    // An authenticator that had to read the body answers later (key_in_body, a body digest);
    // the closure is made only then, not on every request.
    if (verdict instanceof Promise) return verdict.then((exit) => (exit === undefined ? undefined : setAnonymousConsumer(ctx, consumers, anonymous))) as R;
    return verdict === undefined ? undefined : setAnonymousConsumer(ctx, consumers, anonymous);
  };
}
