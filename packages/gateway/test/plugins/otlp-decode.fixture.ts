// A small reader of the protobuf wire format (protobuf.dev/programming-guides/encoding), enough to
// read the spans of an OTLP ExportTraceServiceRequest
// (opentelemetry-proto: collector/trace/v1/trace_service.proto, trace/v1/trace.proto).

type Field = { readonly no: number; readonly wire: number; readonly bytes?: Buffer; readonly int?: bigint };

function varint(buf: Buffer, at: number): [bigint, number] {
  let v = 0n;
  let shift = 0n;
  for (;;) {
    const b = buf[at++]!;
    v |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return [v, at];
    shift += 7n;
  }
}

function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let at = 0;
  while (at < buf.length) {
    const [key, next] = varint(buf, at);
    at = next;
    const no = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) {
      const [v, n] = varint(buf, at);
      out.push({ no, wire, int: v });
      at = n;
    } else if (wire === 1) {
      out.push({ no, wire, int: buf.readBigUInt64LE(at) });
      at += 8;
    } else if (wire === 2) {
      const [len, n] = varint(buf, at);
      out.push({ no, wire, bytes: buf.subarray(n, n + Number(len)) });
      at = n + Number(len);
    } else if (wire === 5) {
      at += 4;
    } else {
      throw new Error(`unsupported wire type ${wire}`);
    }
  }
  return out;
}

const sub = (f: Field[], no: number): Buffer[] => f.filter((x) => x.no === no && x.bytes !== undefined).map((x) => x.bytes!);

/** A decoded span: what the tests look at. */
export type DecodedSpan = {
  readonly traceId: string; readonly spanId: string; readonly parentSpanId: string; readonly name: string; readonly kind: number;
  readonly startNs: bigint; readonly endNs: bigint; readonly attributes: Readonly<Record<string, string | number | boolean>>;
  readonly resource: Readonly<Record<string, string | number | boolean>>;
};

function attributes(kvs: Buffer[]): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const kv of kvs) {
    const f = fields(kv);
    const key = sub(f, 1)[0]?.toString() ?? '';
    const value = fields(sub(f, 2)[0] ?? Buffer.alloc(0))[0];
    if (value === undefined) continue;
    out[key] = value.no === 1 ? value.bytes!.toString() : value.no === 2 ? value.int === 1n : value.no === 3 ? Number(value.int) : value.no === 4 ? Number(value.int) : '';
  }
  return out;
}

/** The spans of an ExportTraceServiceRequest body. */
export function decodeTraceRequest(body: Buffer): DecodedSpan[] {
  const spans: DecodedSpan[] = [];
  for (const rs of sub(fields(body), 1)) {
    const rsf = fields(rs);
    const resource = attributes(sub(fields(sub(rsf, 1)[0] ?? Buffer.alloc(0)), 1));
    for (const ss of sub(rsf, 2)) {
      for (const s of sub(fields(ss), 2)) {
        const f = fields(s);
        const hex = (no: number): string => sub(f, no)[0]?.toString('hex') ?? '';
        const int = (no: number): bigint => f.find((x) => x.no === no)?.int ?? 0n;
        spans.push({
          traceId: hex(1), spanId: hex(2), parentSpanId: hex(4), name: sub(f, 5)[0]?.toString() ?? '', kind: Number(int(6)),
          startNs: int(7), endNs: int(8), attributes: attributes(sub(f, 9)), resource,
        });
      }
    }
  }
  return spans;
}
