// kong/plugins/http-log/schema.lua, as data.
import type { Field } from '../../declarative/schema.ts';
import { HEADER_NAME } from '../../declarative/entities/common.ts';
import type { PluginSchema } from '../plugin-schema.ts';
import { NO_LUA_FIELD, QUEUE_FIELD } from '../queue-schema.ts';
import { validateUrl } from '../redirect/schema.ts';

const deprecated = (type: Field['type']): Field => ({ type });

/** http-log: each request's log entry POSTed (batched by Kong's queue) to a log server. */
export const HTTP_LOG_SCHEMA: PluginSchema = {
  name: 'http-log',
  priority: 12,
  consumerScoped: true,
  config: {
    fields: [
      ['http_endpoint', { type: 'string', required: true, custom: validateUrl }],
      ['method', { type: 'string', default: 'POST', oneOf: ['POST', 'PUT', 'PATCH'] }],
      ['content_type', { type: 'string', default: 'application/json', oneOf: ['application/json', 'application/json; charset=utf-8'] }],
      ['timeout', { type: 'number', default: 10000 }],
      ['keepalive', { type: 'number', default: 60000 }],
      // Kong's deprecated queue parameters: queue_size and flush_timeout still map onto the queue.
      ['retry_count', deprecated('integer')],
      ['queue_size', deprecated('integer')],
      ['flush_timeout', deprecated('number')],
      ['headers', {
        type: 'map',
        keys: {
          ...HEADER_NAME,
          matchNone: [
            { pattern: /^host$/i, err: "cannot contain 'Host' header" },
            { pattern: /^content-length$/i, err: "cannot contain 'Content-Length' header" },
            { pattern: /^content-type$/i, err: "cannot contain 'Content-Type' header" },
          ],
        },
        values: { type: 'string' },
      }],
      ['queue', QUEUE_FIELD],
      ['custom_fields_by_lua', NO_LUA_FIELD],
    ],
    checks: [
      (c) => {
        const url = c.entity.http_endpoint;
        const headers = c.entity.headers;
        if (typeof url !== 'string' || headers === null || typeof headers !== 'object') return;
        const userinfo = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#@]*)@/.test(url);
        if (userinfo && Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) {
          c.entityError("specifying both an 'Authorization' header and user info in 'http_endpoint' is not allowed");
        }
      },
    ],
  },
};
