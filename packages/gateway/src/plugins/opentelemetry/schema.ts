// kong/plugins/opentelemetry/schema.lua, as data: traces over OTLP/HTTP with W3C propagation.
// What needs other formats or Kong's logs signal is refused by name.
import type { Field } from '../../declarative/schema.ts';
import { HEADER_NAME } from '../../declarative/entities/common.ts';
import type { PluginSchema } from '../plugin-schema.ts';
import { QUEUE_FIELD } from '../queue-schema.ts';
import { validateUrl } from '../redirect/schema.ts';

/** Kong's propagation formats (kong/observability/tracing/propagation/utils.lua FORMATS). */
const FORMATS = ['w3c', 'b3', 'b3-single', 'jaeger', 'ot', 'aws', 'gcp', 'datadog', 'instana'];
const onlyW3c = (what: string) => (v: string): string | undefined =>
  (v === 'w3c' || v === 'preserve' ? undefined : `${what} '${v}' is not supported by this gateway (only W3C trace context: w3c${what === 'inject format' ? ', preserve' : ''})`);

const timeout = (ms: number): Field => ({ type: 'integer', default: ms, between: [0, 2 ** 31 - 2] });

/** opentelemetry: a span per request, exported over OTLP/HTTP, trace context propagated. */
export const OPENTELEMETRY_SCHEMA: PluginSchema = {
  name: 'opentelemetry',
  priority: 14,
  consumerScoped: true,
  config: {
    // Kong's deprecated shorthand `endpoint` is not taken (an unknown field): traces_endpoint.
    fields: [
      ['traces_endpoint', { type: 'string', custom: validateUrl }],
      ['logs_endpoint', { type: 'string', custom: (v: string) => `logs_endpoint is not supported by this gateway yet (traces only): ${v}` }],
      ['headers', { type: 'map', keys: HEADER_NAME, values: { type: 'string' } }],
      ['resource_attributes', { type: 'map', keys: { type: 'string', required: true }, values: { type: 'string', required: true } }],
      ['queue', { ...QUEUE_FIELD, default: { max_batch_size: 200 } }],
      ['batch_span_count', { type: 'integer' }],
      ['batch_flush_delay', { type: 'integer' }],
      ['connect_timeout', timeout(1000)],
      ['send_timeout', timeout(5000)],
      ['read_timeout', timeout(5000)],
      ['http_response_header_for_traceid', { type: 'string' }],
      ['header_type', {
        type: 'string', default: 'preserve',
        oneOf: ['preserve', 'ignore', 'b3', 'b3-single', 'w3c', 'jaeger', 'ot', 'aws', 'gcp', 'datadog', 'instana'],
        custom: (v: string) => (v === 'preserve' || v === 'ignore' || v === 'w3c' ? undefined : `header_type '${v}' is not supported by this gateway (only W3C trace context)`),
      }],
      ['sampling_rate', { type: 'number', between: [0, 1] }],
      ['propagation', {
        type: 'record',
        required: true,
        default: { default_format: 'w3c' },
        record: {
          fields: [
            ['extract', { type: 'array', elements: { type: 'string', oneOf: FORMATS.filter((f) => f !== 'b3-single'), custom: onlyW3c('extract format') } }],
            ['clear', { type: 'array', elements: HEADER_NAME }],
            ['inject', { type: 'array', elements: { type: 'string', oneOf: ['preserve', ...FORMATS], custom: onlyW3c('inject format') } }],
            ['default_format', { type: 'string', required: true, oneOf: FORMATS, custom: onlyW3c('default format') }],
          ],
        },
      }],
    ],
    checks: [
      (c) => {
        const e = c.entity;
        if ((e.traces_endpoint === null || e.traces_endpoint === undefined) && (e.logs_endpoint === null || e.logs_endpoint === undefined)) {
          c.entityError("at least one of these fields must be non-empty: 'traces_endpoint', 'logs_endpoint'");
        }
      },
    ],
  },
};
