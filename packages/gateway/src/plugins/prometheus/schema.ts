// kong/plugins/prometheus/schema.lua, as data.
import type { PluginSchema } from '../plugin-schema.ts';

/** prometheus: per-service/route metrics on the admin GET /metrics. */
export const PROMETHEUS_SCHEMA: PluginSchema = {
  name: 'prometheus',
  priority: 13,
  consumerScoped: true,
  config: {
    fields: [
      ['per_consumer', { type: 'boolean', default: false }],
      ['status_code_metrics', { type: 'boolean', default: false }],
      // Kong's AI and Wasm metrics: no such traffic here; true is refused rather than ignored.
      ['ai_metrics', { type: 'boolean', default: false, custom: (v: boolean) => (v ? 'ai_metrics is not supported by this gateway (it proxies no AI traffic)' : undefined) }],
      ['latency_metrics', { type: 'boolean', default: false }],
      ['bandwidth_metrics', { type: 'boolean', default: false }],
      ['upstream_health_metrics', { type: 'boolean', default: false }],
      ['wasm_metrics', { type: 'boolean', default: false, custom: (v: boolean) => (v ? 'wasm_metrics is not supported by this gateway (it runs no Wasm filters)' : undefined) }],
    ],
  },
};
