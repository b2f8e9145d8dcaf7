import { connect, type ClientHttp2Session } from 'node:http2';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';

/** Why a session could not be had: refused/reset/handshake failure, or connect_timeout. */
export type SessionFailure = 'tcp_failure' | 'timeout';

export type SessionTls = {
  readonly rejectUnauthorized: boolean;
  readonly servername: string | undefined;
  /** Sent for mutual TLS (the upstream's client_certificate); `id` keeps pools apart. */
  readonly clientCertificate?: { readonly id: string; readonly cert: string; readonly key: string } | undefined;
};

/**
 * HTTP/2 sessions to gRPC targets, one per address (and TLS-ness), shared by every call: gRPC
 * multiplexes calls on one connection. A session that closes or receives GOAWAY is dropped and
 * the next call opens a new one.
 */
export class Http2SessionPool {
  readonly #sessions = new Map<string, Promise<ClientHttp2Session>>();
  readonly #trustedCa: readonly string[] | undefined;

  constructor(options: { trustedCa?: readonly string[] | undefined } = {}) {
    this.#trustedCa = options.trustedCa;
  }

  /** A connected session to host:port; rejects with a {@link SessionFailure}. */
  get(host: string, port: number, tls: SessionTls | undefined, connectTimeoutMs: number): Promise<ClientHttp2Session> {
    const key = `${tls ? 'h2' : 'h2c'}|${host}|${port}|${tls?.servername ?? ''}|${tls?.rejectUnauthorized ?? ''}|${tls?.clientCertificate?.id ?? ''}`;
    const existing = this.#sessions.get(key);
    if (existing !== undefined) return existing;
    const opening = this.#open(host, port, tls, connectTimeoutMs);
    this.#sessions.set(key, opening);
    opening.then(
      (session) => {
        const forget = (): void => {
          if (this.#sessions.get(key) === opening) this.#sessions.delete(key);
        };
        session.once('close', forget);
        session.once('goaway', forget);
        session.on('error', forget);
      },
      () => {
        if (this.#sessions.get(key) === opening) this.#sessions.delete(key);
      },
    );
    return opening;
  }

  #open(host: string, port: number, tls: SessionTls | undefined, timeoutMs: number): Promise<ClientHttp2Session> {
    const h = host.includes(':') ? `[${host}]` : host;
    return new Promise((resolve, reject) => {
      const sni = tls?.servername ?? host;
      const session = connect(`${tls ? 'https' : 'http'}://${h}:${port}`, tls
        ? {
            rejectUnauthorized: tls.rejectUnauthorized,
            // Node refuses an IP as SNI.
            ...(isIP(sni) === 0 ? { servername: sni } : {}),
            ...(this.#trustedCa ? { ca: [...rootCertificates, ...this.#trustedCa] } : {}),
            ...(tls.clientCertificate ? { cert: tls.clientCertificate.cert, key: tls.clientCertificate.key } : {}),
          }
        : {});
      // nginx grpc_connect_timeout: TCP connect and, for grpcs, the TLS handshake.
      const timer = setTimeout(() => {
        session.destroy();
        reject(new SessionError('timeout'));
      }, timeoutMs);
      session.once('connect', () => {
        clearTimeout(timer);
        session.off('error', onError);
        session.on('error', () => session.destroy());
        resolve(session);
      });
      const onError = (): void => {
        clearTimeout(timer);
        session.destroy();
        reject(new SessionError('tcp_failure'));
      };
      session.once('error', onError);
    });
  }

  /** Closes every session. */
  close(): void {
    for (const s of this.#sessions.values()) s.then((session) => session.destroy(), () => undefined);
    this.#sessions.clear();
  }
}

/** A failed session open, carrying the kind passive checks count. */
export class SessionError extends Error {
  readonly failure: SessionFailure;
  constructor(failure: SessionFailure) {
    super(failure === 'timeout' ? 'connect timed out' : 'connect failed');
    this.failure = failure;
  }
}
