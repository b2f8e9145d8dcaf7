// kong/plugins/ip-restriction/schema.lua, as data.
import type { Field } from '../../declarative/schema.ts';
import { isIpOrCidr } from '../../proxy/ip-set.ts';
import type { PluginSchema } from '../plugin-schema.ts';

// Kong's typedefs.ip_or_cidr.
const IP_OR_CIDR: Field = { type: 'string', custom: (v: string) => (isIpOrCidr(v) ? undefined : `invalid ip or cidr range: '${v}'`) };

/** ip-restriction: allow or deny clients by address or CIDR range. */
export const IP_RESTRICTION_SCHEMA: PluginSchema = {
  name: 'ip-restriction',
  priority: 990,
  consumerScoped: true,
  config: {
    fields: [
      ['allow', { type: 'array', elements: IP_OR_CIDR }],
      ['deny', { type: 'array', elements: IP_OR_CIDR }],
      // The status and message of a refusal (default 403, "IP address not allowed: <client>").
      ['status', { type: 'number' }],
      ['message', { type: 'string' }],
    ],
  },
  entityChecks: [{ at_least_one_of: ['config.allow', 'config.deny'] }],
};
