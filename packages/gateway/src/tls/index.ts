/** Certificates by SNI (exact, prefix wildcard, suffix wildcard, `*`, default), TLS 1.2+. */
export { CertificateStore, type PemPair } from './certificate-store.ts';
/** The TLS context of a certificate and key (TLS 1.2+), and that minimum version. */
export { MIN_TLS_VERSION, secureContextFor } from './secure-context.ts';
/** The node default certificate: given PEM, or one generated at start. */
export { loadDefaultCertificate } from './load-default-certificate.ts';
/** The client handshake deadline, and the listener hook that makes node:tls close on it. */
export { closeOnClientError, TLS_HANDSHAKE_MS } from './handshake-deadline.ts';
