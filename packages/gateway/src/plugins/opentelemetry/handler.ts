// kong/plugins/opentelemetry/{handler,traces}.lua: a SERVER span per request, child of the
// client's W3C trace context when it sent one; the upstream gets a traceparent naming this span;
// the span ends in the log phase with the status and is exported in batches over OTLP/HTTP.
import type { PluginHandler } from '../plugin-handler.ts';
import type { QueueSettings } from '../log-queue.ts';
import { pluginLog } from '../plugin-log.ts';
import { loadSdk, tracerFor } from './otlp-tracer.ts';
import { formatTraceParent, parseTraceParent } from './traceparent.ts';
import { OPENTELEMETRY_SCHEMA } from './schema.ts';
import type * as Api from '@opentelemetry/api';

type OtelConfig = {
  readonly traces_endpoint: string;
  readonly headers: Readonly<Record<string, string>> | null;
  readonly resource_attributes: Readonly<Record<string, string>> | null;
  readonly queue: QueueSettings;
  readonly batch_span_count: number | null;
  readonly batch_flush_delay: number | null;
  readonly connect_timeout: number;
  readonly send_timeout: number;
  readonly read_timeout: number;
  readonly http_response_header_for_traceid: string | null;
  readonly header_type: 'preserve' | 'ignore' | 'w3c';
  readonly sampling_rate: number | null;
  readonly propagation: { readonly extract: readonly string[] | null; readonly clear: readonly string[] | null; readonly inject: readonly string[] | null };
};

const SPAN = 'opentelemetry:span';

/** opentelemetry, PRIORITY 14. */
export const OPENTELEMETRY_HANDLER: PluginHandler = {
  name: OPENTELEMETRY_SCHEMA.name,
  priority: OPENTELEMETRY_SCHEMA.priority,
  build(config) {
    const conf = config as OtelConfig;
    const queue: QueueSettings = {
      ...conf.queue,
      ...(conf.batch_span_count !== null ? { max_batch_size: conf.batch_span_count } : {}),
      ...(conf.batch_flush_delay !== null ? { max_coalescing_delay: conf.batch_flush_delay } : {}),
    };
    const tracer = tracerFor({
      endpoint: conf.traces_endpoint,
      headers: conf.headers ?? {},
      resourceAttributes: conf.resource_attributes ?? {},
      queue,
      timeoutMs: conf.connect_timeout + conf.send_timeout + conf.read_timeout,
      // Kong takes kong.conf's tracing_sampling_rate when unset; this gateway has none: every request.
      samplingRate: conf.sampling_rate ?? 1,
    });
    const { api } = loadSdk();
    // header_type "ignore" or an explicit empty extract list: the client's context is not read.
    const extract = conf.header_type !== 'ignore' && (conf.propagation.extract === null || conf.propagation.extract.length > 0);
    const traceIdHeader = conf.http_response_header_for_traceid;
    return {
      access(ctx) {
        const parent = extract ? parseTraceParent(ctx.firstHeader('traceparent')) : undefined;
        const parentContext = parent === undefined ? api.ROOT_CONTEXT : api.trace.setSpanContext(api.ROOT_CONTEXT, {
          traceId: parent.traceId, spanId: parent.spanId, traceFlags: parent.sampled ? api.TraceFlags.SAMPLED : api.TraceFlags.NONE, isRemote: true,
        });
        const span = tracer.startSpan('kong', {
          kind: api.SpanKind.SERVER,
          startTime: performance.timeOrigin + ctx.startedAt,
          attributes: {
            'http.method': ctx.method,
            'http.flavor': ctx.httpVersion,
            'http.url': ctx.target,
            ...(ctx.firstHeader('host') !== undefined ? { 'http.host': ctx.firstHeader('host') } : {}),
            'net.peer.ip': ctx.socket?.remoteAddress ?? '',
            'kong.request.id': ctx.requestId,
          },
        }, parentContext);
        (ctx.shared ??= {})[SPAN] = span;
        for (const name of conf.propagation.clear ?? []) ctx.clearHeader(name);
        const sc = span.spanContext();
        ctx.setHeader('traceparent', formatTraceParent({ traceId: sc.traceId, spanId: sc.spanId, sampled: (sc.traceFlags & api.TraceFlags.SAMPLED) !== 0 }));
        return undefined;
      },
      ...(traceIdHeader !== null ? {
        headerFilter(ctx, head) {
          const span = ctx.shared?.[SPAN] as Api.Span | undefined;
          if (span !== undefined) head.set(traceIdHeader, span.spanContext().traceId);
        },
      } : {}),
      log(ctx, entry) {
        const span = ctx.shared?.[SPAN] as Api.Span | undefined;
        if (span === undefined) return;
        const d = entry.done;
        span.setAttribute('http.status_code', d.status);
        if (d.route !== undefined) span.setAttribute('kong.route', d.route.name ?? d.route.id);
        if (d.service !== undefined) span.setAttribute('kong.service', d.service.name ?? d.service.id);
        if (ctx.consumer !== undefined) span.setAttribute('kong.consumer', ctx.consumer.username ?? ctx.consumer.id);
        if (d.status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
        try {
          span.end(performance.timeOrigin + d.totalMs + entry.startedAt);
        } catch (err) {
          pluginLog().error({ plugin: 'opentelemetry' }, `opentelemetry: ${String(err)}`);
        }
      },
    };
  },
};
