// W3C Trace Context (www.w3.org/TR/trace-context): the traceparent header read and written.

export type TraceParent = { readonly traceId: string; readonly spanId: string; readonly sampled: boolean };

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/;

/** Parses a traceparent; undefined when invalid (version ff, all-zero ids, bad syntax). */
export function parseTraceParent(value: string | undefined): TraceParent | undefined {
  const m = value === undefined ? null : TRACEPARENT.exec(value.trim().toLowerCase());
  if (m === null) return undefined;
  const [, version, traceId = '', spanId = '', flags = '00'] = m;
  // Version 00 has exactly four fields; later versions may add more.
  if (version === 'ff' || (version === '00' && value!.trim().length !== 55)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId, sampled: (parseInt(flags, 16) & 1) === 1 };
}

/** The traceparent for a span. */
export const formatTraceParent = (t: TraceParent): string => `00-${t.traceId}-${t.spanId}-${t.sampled ? '01' : '00'}`;
