import { connect, constants, type IncomingHttpHeaders } from 'node:http2';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import { httpStatusOfGrpcStatus } from '../grpc/grpc-status.ts';
import type { ProbeRequest } from './active-prober.ts';
import type { HealthOutcome } from './health-checker.ts';

/** grpc.health.v1.HealthCheckResponse.ServingStatus (grpc/doc/health-checking.md). */
export const SERVING_STATUS = { UNKNOWN: 0, SERVING: 1, NOT_SERVING: 2, SERVICE_UNKNOWN: 3 } as const;

/** An empty HealthCheckRequest (service "" = the server as a whole) in one gRPC message frame. */
const CHECK_REQUEST = Buffer.from([0, 0, 0, 0, 0]);

/**
 * The `status` of a HealthCheckResponse carried in a gRPC length-prefixed message
 * (PROTOCOL-HTTP2.md: flag byte, 4-byte length, protobuf), or undefined when the bytes are not
 * one uncompressed message. An absent field is proto3's default, UNKNOWN (0).
 */
export function readServingStatus(body: Uint8Array): number | undefined {
  if (body.length < 5 || body[0] !== 0) return undefined;
  const length = ((body[1]! << 24) | (body[2]! << 16) | (body[3]! << 8) | body[4]!) >>> 0;
  if (body.length !== 5 + length) return undefined;
  let at = 5;
  let status: number = SERVING_STATUS.UNKNOWN;
  const varint = (): number | undefined => {
    let v = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (at >= body.length) return undefined;
      const b = body[at++]!;
      v += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return v;
    }
    return undefined;
  };
  while (at < body.length) {
    const key = varint();
    if (key === undefined) return undefined;
    const wire = key & 7;
    if (wire === 0) {
      const v = varint();
      if (v === undefined) return undefined;
      if (key >>> 3 === 1) status = v;
    } else if (wire === 2) {
      const n = varint();
      if (n === undefined || at + n > body.length) return undefined;
      at += n;
    } else if (wire === 1 || wire === 5) {
      at += wire === 1 ? 8 : 4;
      if (at > body.length) return undefined;
    } else {
      return undefined;
    }
  }
  return status;
}

/**
 * A grpc/grpcs active probe: `grpc.health.v1.Health/Check` over h2c or h2 (ALPN). SERVING is
 * reported as 200 (a success with the default `healthy.http_statuses`), any other serving
 * status as 503 (an HTTP failure with the default `unhealthy.http_statuses`), a non-OK
 * grpc-status as the HTTP status it stands for (UNIMPLEMENTED → 501), an unreadable answer as
 * 0. Connect, TLS and stream errors are TCP failures; `active.timeout` bounds the whole probe.
 */
export function probeGrpc(request: ProbeRequest): Promise<HealthOutcome> {
  const { address, active, signal } = request;
  const tls = active.type === 'grpcs';
  return new Promise<HealthOutcome>((resolve) => {
    if (signal.aborted) return resolve('tcp_failure');
    const sni = active.https_sni ?? request.hostHeader;
    const host = address.host.includes(':') ? `[${address.host}]` : address.host;
    const session = connect(`${tls ? 'https' : 'http'}://${host}:${address.port}`, tls
      ? {
          ...(isIP(sni) === 0 ? { servername: sni } : {}),
          rejectUnauthorized: active.https_verify_certificate,
          ...(request.trustedCa ? { ca: [...rootCertificates, ...request.trustedCa] } : {}),
          ...(request.clientCertificate ? { cert: request.clientCertificate.cert, key: request.clientCertificate.key } : {}),
        }
      : {});
    let settled = false;
    const done = (outcome: HealthOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      session.destroy();
      resolve(outcome);
    };
    const onAbort = (): void => done('tcp_failure');
    const timer = setTimeout(() => done('timeout'), Math.max(1, active.timeout * 1000));
    signal.addEventListener('abort', onAbort, { once: true });
    session.on('error', () => done('tcp_failure'));
    session.once('close', () => done('tcp_failure'));
    const call = session.request({
      ':method': 'POST',
      ':path': '/grpc.health.v1.Health/Check',
      ':authority': request.hostHeader,
      'content-type': 'application/grpc',
      te: 'trailers',
    });
    call.on('error', () => done('tcp_failure'));
    const chunks: Buffer[] = [];
    let grpcStatus: string | undefined;
    call.once('response', (headers) => {
      const status = Number(headers[':status']);
      if (status !== 200) return done(status);
      // Trailers-only: the call failed before any message.
      if (headers['grpc-status'] !== undefined) grpcStatus = String(headers['grpc-status']);
    });
    call.on('trailers', (trailers: IncomingHttpHeaders) => {
      if (trailers['grpc-status'] !== undefined) grpcStatus = String(trailers['grpc-status']);
    });
    call.on('data', (chunk: Buffer) => chunks.push(chunk));
    call.once('end', () => {
      if (grpcStatus !== undefined && grpcStatus !== '0') return done(httpStatusOfGrpcStatus(grpcStatus));
      const serving = readServingStatus(Buffer.concat(chunks));
      if (serving === undefined || grpcStatus === undefined) return done(0);
      done(serving === SERVING_STATUS.SERVING ? 200 : 503);
    });
    call.end(CHECK_REQUEST);
    call.once('close', () => {
      if (call.rstCode !== undefined && call.rstCode !== constants.NGHTTP2_NO_ERROR) done('tcp_failure');
    });
  });
}
