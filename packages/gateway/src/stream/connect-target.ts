import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, rootCertificates } from 'node:tls';
import { PeerAttempts } from '../proxy/peer-attempts.ts';
import type { ProxyHooks } from '../proxy/proxy-hooks.ts';
import type { ProxyRoute } from '../proxy/proxy-route.ts';

/** How a connection to the target ended up. */
export type ConnectResult =
  /** `attempts.release()` once the relay is over: least-connections counts the connection until then. */
  | { readonly ok: true; readonly socket: Socket; readonly attempts: PeerAttempts }
  /** `no_peer`: the balancer is unhealthy or has no available address (Kong: 503). */
  | { readonly ok: false; readonly reason: 'no_peer' | 'tcp_failure' | 'timeout' | 'aborted' };

type Attempt = 'ok' | 'tcp_failure' | 'timeout' | 'aborted';

export type ConnectOptions = {
  readonly hooks: ProxyHooks;
  /** The client address: what an upstream with `hash_on: ip` hashes (the only input a stream has). */
  readonly clientIp: string;
  /** Extra trusted CAs (PEM) for `tls` services that verify the target. */
  readonly trustedCa?: readonly string[] | undefined;
  /** Aborted when the client goes away while connecting. */
  readonly signal: AbortSignal;
};

/** One connect (and, for `tls` services, handshake) bounded by `connect_timeout`. */
function connectOnce(target: ProxyRoute, host: string, port: number, options: ConnectOptions): Promise<{ attempt: Attempt; socket: Socket }> {
  const timeoutMs = target.service.connect_timeout;
  const tls = target.tls;
  return new Promise((resolve) => {
    let socket: Socket;
    if (tls !== undefined) {
      const sni = tls.servername ?? host;
      socket = tlsConnect({
        host,
        port,
        // Node refuses an IP as SNI.
        ...(isIP(sni) === 0 ? { servername: sni } : {}),
        rejectUnauthorized: tls.rejectUnauthorized,
        ...(options.trustedCa ? { ca: [...rootCertificates, ...options.trustedCa] } : {}),
        ...(tls.clientCertificate ? { cert: tls.clientCertificate.cert, key: tls.clientCertificate.key } : {}),
      });
    } else {
      socket = netConnect({ host, port, allowHalfOpen: true });
    }
    // nginx stream tcp_nodelay is on by default: small writes go out at once.
    socket.setNoDelay(true);
    let settled = false;
    const settle = (attempt: Attempt): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      socket.off('error', onError);
      socket.off('close', onClose);
      if (attempt !== 'ok') socket.destroy();
      resolve({ attempt, socket });
    };
    const onError = (): void => settle('tcp_failure');
    const onClose = (): void => settle('tcp_failure');
    const onAbort = (): void => settle('aborted');
    // nginx proxy_connect_timeout: the TCP connect and, for TLS, the handshake.
    const timer = setTimeout(() => settle('timeout'), timeoutMs);
    socket.once(tls !== undefined ? 'secureConnect' : 'connect', () => settle('ok'));
    socket.on('error', onError);
    socket.on('close', onClose);
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Connects a stream connection to its target as a request is sent, with the same PeerAttempts
 * as HTTP and gRPC: a peer from the upstream's balancer (hashing the client address for
 * `hash_on: ip`), and on a connect error or timeout another peer, skipping the failed one, up
 * to `service.retries` more times (nginx proxy_next_upstream error timeout). Failures are
 * reported as `tcp_failure`/`timeout` with `retried` set when another attempt follows, a
 * connect as 200 (nginx stream `$status`); docs/gateway-config.md, stream services.
 */
export async function connectTarget(target: ProxyRoute, options: ConnectOptions): Promise<ConnectResult> {
  const attempts = new PeerAttempts(target, options.hooks, () => ({ clientIp: options.clientIp }));
  for (;;) {
    const peer = attempts.pick();
    if (peer === undefined) return { ok: false, reason: 'no_peer' };
    const { attempt, socket } = await connectOnce(target, peer.host, peer.port, options);
    if (attempt === 'ok') {
      attempts.answered(200);
      return { ok: true, socket, attempts };
    }
    if (attempt === 'aborted') {
      attempts.release();
      return { ok: false, reason: 'aborted' };
    }
    if (!attempts.failed(attempt)) return { ok: false, reason: attempt };
  }
}
