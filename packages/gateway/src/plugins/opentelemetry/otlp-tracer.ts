// The OpenTelemetry JavaScript SDK, loaded only when an opentelemetry plugin is configured
// (23 MB on disk with protobufjs; once loaded ~17 MB more RSS per process: docs/gateway-plugins.md,
// opentelemetry). Gateways that do not trace never load it. One tracer
// provider per exporter settings per process: a BatchSpanProcessor (Kong's queue settings) over
// the OTLP/HTTP protobuf exporter, as Kong sends.
import { createRequire } from 'node:module';
import type * as Api from '@opentelemetry/api';
import type * as SdkTrace from '@opentelemetry/sdk-trace';
import type * as Resources from '@opentelemetry/resources';
import type * as Exporter from '@opentelemetry/exporter-trace-otlp-proto';
import type { QueueSettings } from '../log-queue.ts';
import { KONG_VERSION } from '../../proxy/kong-headers.ts';

const require = createRequire(import.meta.url);

type Sdk = { api: typeof Api; trace: typeof SdkTrace; resources: typeof Resources; exporter: typeof Exporter };
let sdk: Sdk | undefined;

/** The SDK's modules, required on first use. */
export function loadSdk(): Sdk {
  sdk ??= {
    api: require('@opentelemetry/api') as typeof Api,
    trace: require('@opentelemetry/sdk-trace') as typeof SdkTrace,
    resources: require('@opentelemetry/resources') as typeof Resources,
    exporter: require('@opentelemetry/exporter-trace-otlp-proto') as typeof Exporter,
  };
  return sdk;
}

/** What a tracer provider is built from. */
export type ExportSettings = {
  readonly endpoint: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly resourceAttributes: Readonly<Record<string, string>>;
  readonly queue: QueueSettings;
  /** connect + send + read timeouts, ms: the exporter has one. */
  readonly timeoutMs: number;
  readonly samplingRate: number;
};

const tracers = new Map<string, Api.Tracer>();

/** The tracer for these settings (created once per process and settings). */
export function tracerFor(s: ExportSettings): Api.Tracer {
  const key = JSON.stringify(s);
  let tracer = tracers.get(key);
  if (tracer !== undefined) return tracer;
  const { trace, resources, exporter } = loadSdk();
  const provider = new trace.TracerProvider({
    // Kong's resource: service.name kong, its version, overridable by resource_attributes.
    resource: resources.resourceFromAttributes({ 'service.name': 'kong', 'service.version': KONG_VERSION, 'service.instance.id': `${process.pid}`, ...s.resourceAttributes }),
    // A sampled parent is followed; otherwise sampling_rate decides (trace id ratio).
    sampler: new trace.ParentBasedSampler({ root: new trace.TraceIdRatioBasedSampler(s.samplingRate) }),
    spanProcessors: [new trace.BatchSpanProcessor({
      exporter: new exporter.OTLPTraceExporter({ url: s.endpoint, headers: { ...s.headers }, timeoutMillis: s.timeoutMs }),
      maxExportBatchSize: s.queue.max_batch_size,
      scheduledDelayMillis: s.queue.max_coalescing_delay * 1000,
      maxQueueSize: Math.max(s.queue.max_entries, s.queue.max_batch_size),
      exportTimeoutMillis: s.timeoutMs,
    })],
  });
  tracer = provider.getTracer('kong');
  tracers.set(key, tracer);
  return tracer;
}
