// kong/plugins/acl/schema.lua, as data.
import type { PluginSchema } from '../plugin-schema.ts';

/** acl: allow or deny the authenticated consumer by its groups (acls entities). */
export const ACL_SCHEMA: PluginSchema = {
  name: 'acl',
  priority: 950,
  consumerScoped: false,
  config: {
    fields: [
      ['allow', { type: 'array', elements: { type: 'string' } }],
      ['deny', { type: 'array', elements: { type: 'string' } }],
      // Do not send X-Consumer-Groups upstream.
      ['hide_groups_header', { type: 'boolean', required: true, default: false }],
      ['always_use_authenticated_groups', { type: 'boolean', required: true, default: false }],
      // Kong Gateway: the consumer's consumer group names count as groups too.
      ['include_consumer_groups', { type: 'boolean', required: true, default: false }],
    ],
  },
  entityChecks: [{ only_one_of: ['config.allow', 'config.deny'] }, { at_least_one_of: ['config.allow', 'config.deny'] }],
};
