// kong/plugins/acl/handler.lua: allow or deny by the groups of the authenticated consumer (its
// acls, and with include_consumer_groups its consumer groups' names), or by groups an
// authentication plugin vouched for; the groups go upstream in
// X-Consumer-Groups (X-Authenticated-Groups for the latter) unless hidden.
import type { PluginHandler } from '../plugin-handler.ts';
import { ACL_SCHEMA } from './schema.ts';
import type { PluginExit } from '../plugin-context.ts';

type AclConfig = {
  readonly allow: readonly string[] | null;
  readonly deny: readonly string[] | null;
  readonly hide_groups_header: boolean;
  readonly always_use_authenticated_groups: boolean;
  readonly include_consumer_groups: boolean;
};

const FORBIDDEN: PluginExit = { status: 403, message: 'You cannot consume this service' };
const UNAUTHORIZED: PluginExit = { status: 401, message: 'Unauthorized' };

/** acl, PRIORITY 950 (after every authentication plugin). */
export const ACL_HANDLER: PluginHandler = {
  name: ACL_SCHEMA.name,
  priority: ACL_SCHEMA.priority,
  build(config, consumers) {
    const conf = config as AclConfig;
    const deny = conf.deny !== null && conf.deny.length > 0;
    const listed = new Set(deny ? conf.deny : (conf.allow ?? []));
    // The header value when let through, or true when blocked (Kong's get_to_be_blocked).
    const verdict = (groups: readonly string[]): string | true => {
      const inGroup = groups.some((g) => listed.has(g));
      if (deny ? inGroup : !inGroup) return true;
      return conf.hide_groups_header ? '' : groups.join(', ');
    };
    // A consumer's verdict depends only on the consumer and this configuration, both fixed for
    // the load (a reload builds the handler again), so it is worked out once per consumer.
    // null: the consumer has no groups and an allow list is set (Kong's 401/403 by credential).
    const byConsumer = new Map<string, string | true | null>();
    const consumerVerdict = (consumerId: string): string | true | null => {
      const cached = byConsumer.get(consumerId);
      if (cached !== undefined) return cached;
      let groups = consumers.groups(consumerId);
      // include_consumer_groups: the consumer group names after the acls, once each.
      const memberOf = conf.include_consumer_groups ? consumers.consumerGroups(consumerId) : undefined;
      if (memberOf !== undefined) groups = [...new Set([...(groups ?? []), ...memberOf.map((g) => g.name)])];
      const found = groups === undefined && !deny ? null : verdict(groups ?? []);
      byConsumer.set(consumerId, found);
      return found;
    };
    return {
      access(ctx) {
        let consumerId = ctx.consumer?.id ?? ctx.credential?.consumerId;
        let result: string | true;
        if (consumerId === undefined) {
          const authenticated = ctx.authenticatedGroups;
          if (authenticated === undefined) return ctx.credential !== undefined ? FORBIDDEN : UNAUTHORIZED;
          result = verdict(authenticated);
        } else {
          const authenticated = ctx.credential === undefined || conf.always_use_authenticated_groups ? ctx.authenticatedGroups : undefined;
          if (authenticated !== undefined) {
            consumerId = undefined;
            result = verdict(authenticated);
          } else {
            const known = consumerVerdict(consumerId);
            if (known === null) return ctx.credential !== undefined ? FORBIDDEN : UNAUTHORIZED;
            result = known;
          }
        }
        if (result === true) return FORBIDDEN;
        if (!conf.hide_groups_header) ctx.setHeader(consumerId !== undefined ? 'X-Consumer-Groups' : 'X-Authenticated-Groups', result);
        return undefined;
      },
    };
  },
};
