/** Certificates by SNI (exact, prefix wildcard, suffix wildcard, `*`, default), TLS 1.2+. */
export { CertificateStore, MIN_TLS_VERSION, type PemPair } from './certificate-store.ts';
/** The node default certificate: given PEM, or one generated at start. */
export { loadDefaultCertificate } from './load-default-certificate.ts';
