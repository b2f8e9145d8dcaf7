import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, rootCertificates } from 'node:tls';
import type { HealthOutcome } from './health-checker.ts';
import type { ProbeRequest } from './active-prober.ts';
import { probeGrpc } from './probe-grpc.ts';

// healthcheck.lua run_single_check reads only the status line.
const STATUS_LINE = /^HTTP\/\d+\.\d+\s+(\d+)/i;
// A status line longer than this is not one: report it as unparsable (status 0).
const MAX_STATUS_LINE = 8192;

/** The request bytes Kong 3.10 sends (lua-resty-healthcheck 3.1.0 lib/resty/healthcheck.lua): HTTP/1.0, no port in Host. */
export function probeRequestText(request: Pick<ProbeRequest, 'active' | 'hostHeader'>): string {
  let headers = '';
  for (const [name, values] of Object.entries(request.active.headers ?? {})) {
    for (const value of values) headers += `${name}: ${value}\r\n`;
  }
  return `GET ${request.active.http_path} HTTP/1.0\r\n${headers}Host: ${request.hostHeader}\r\n\r\n`;
}

/**
 * One active probe over a real socket: `tcp` is a bare connect; `http`/`https` send Kong's
 * request and read the status line; `grpc`/`grpcs` ask grpc.health.v1 (probe-grpc.ts). `active.timeout` (seconds) bounds each socket operation;
 * a TLS handshake failure (bad or wrong-host certificate) is a TCP failure, as in Kong.
 */
export function probeTarget(request: ProbeRequest): Promise<HealthOutcome> {
  if (request.active.type === 'grpc' || request.active.type === 'grpcs') return probeGrpc(request);
  const { address, active, signal } = request;
  return new Promise<HealthOutcome>((resolve) => {
    let settled = false;
    let socket: Socket;
    const done = (outcome: HealthOutcome): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(outcome);
    };
    const onAbort = (): void => done('tcp_failure');
    const timeoutMs = Math.max(1, active.timeout * 1000);

    const sendRequest = (): void => {
      if (active.type === 'tcp') return done('connected');
      let received = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => {
        received += chunk;
        const eol = received.indexOf('\n');
        if (eol === -1 && received.length < MAX_STATUS_LINE) return;
        const match = STATUS_LINE.exec(eol === -1 ? received : received.slice(0, eol));
        done(match ? Number(match[1]) : 0);
      });
      // A close before a full status line is a receive error: Kong reports a TCP failure.
      socket.write(probeRequestText(request));
    };

    if (active.type === 'https') {
      const sni = active.https_sni ?? request.hostHeader;
      socket = tlsConnect({
        host: address.host,
        port: address.port,
        // Node refuses an IP as SNI; the identity check then falls back to the host.
        ...(isIP(sni) === 0 ? { servername: sni } : {}),
        rejectUnauthorized: active.https_verify_certificate,
        ...(request.trustedCa ? { ca: [...rootCertificates, ...request.trustedCa] } : {}),
        ...(request.clientCertificate ? { cert: request.clientCertificate.cert, key: request.clientCertificate.key } : {}),
        timeout: timeoutMs,
      });
      socket.once('secureConnect', sendRequest);
    } else {
      socket = netConnect({ host: address.host, port: address.port, timeout: timeoutMs });
      socket.once('connect', sendRequest);
    }
    socket.on('timeout', () => done('timeout'));
    socket.on('error', () => done('tcp_failure'));
    socket.on('close', () => done('tcp_failure'));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}
