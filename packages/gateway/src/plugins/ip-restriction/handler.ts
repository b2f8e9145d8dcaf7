// kong/plugins/ip-restriction/handler.lua: a client in `deny` is refused, then a client not in
// a non-empty `allow` is; deny wins over allow. The client is kong.client.get_ip() as the
// real_ip settings decide. Kong also runs it on tcp/tls streams; here it runs on HTTP and gRPC.
import { IpSet } from '../../proxy/ip-set.ts';
import type { PluginExit } from '../plugin-context.ts';
import type { PluginHandler } from '../plugin-handler.ts';
import { IP_RESTRICTION_SCHEMA } from './schema.ts';

type IpRestrictionConfig = {
  readonly allow: readonly string[] | null;
  readonly deny: readonly string[] | null;
  readonly status: number | null;
  readonly message: string | null;
};

const setOf = (list: readonly string[] | null): IpSet | undefined => (list === null || list.length === 0 ? undefined : new IpSet(list));

/** ip-restriction, PRIORITY 990. */
export const IP_RESTRICTION_HANDLER: PluginHandler = {
  name: IP_RESTRICTION_SCHEMA.name,
  priority: IP_RESTRICTION_SCHEMA.priority,
  build(config) {
    const conf = config as IpRestrictionConfig;
    const deny = setOf(conf.deny);
    const allow = setOf(conf.allow);
    const status = conf.status ?? 403;
    const refuse = (ip: string): PluginExit => ({ status, message: conf.message ?? `IP address not allowed: ${ip}` });
    return {
      access(ctx) {
        const ip = ctx.clientIp;
        if (deny?.has(ip) === true) return refuse(ip);
        if (allow !== undefined && !allow.has(ip)) return refuse(ip);
        return undefined;
      },
    };
  },
};
