// kong/plugins/request-termination/schema.lua, as data.
import { HEADER_NAME } from '../../declarative/entities/common.ts';
import type { PluginSchema } from '../plugin-schema.ts';

const isPresent = (v: unknown): boolean => typeof v === 'string' && v.length > 0;

// Kong's custom_validator, its checks in its order.
function validateTermination(config: Readonly<Record<string, unknown>>): string | undefined {
  if (isPresent(config.message) && (isPresent(config.content_type) || isPresent(config.body))) return 'message cannot be used with content_type or body';
  if (isPresent(config.content_type) && !isPresent(config.body)) return 'content_type requires a body';
  if (config.echo === true && (isPresent(config.content_type) || isPresent(config.body))) return 'echo cannot be used with content_type and body';
  return undefined;
}

/** request-termination: answers every request (or those carrying `trigger`) in the upstream's place. */
export const REQUEST_TERMINATION_SCHEMA: PluginSchema = {
  name: 'request-termination',
  priority: 2,
  consumerScoped: true,
  config: {
    fields: [
      ['status_code', { type: 'integer', required: true, default: 503, between: [100, 599] }],
      ['message', { type: 'string' }],
      ['content_type', { type: 'string' }],
      ['body', { type: 'string' }],
      ['echo', { type: 'boolean', required: true, default: false }],
      ['trigger', HEADER_NAME],
    ],
  },
  configValidator: validateTermination,
};
