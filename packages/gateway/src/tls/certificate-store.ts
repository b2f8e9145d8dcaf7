import type { SecureContext } from 'node:tls';
import type { Certificate, Sni } from '../declarative/types.ts';
import { secureContextFor } from './secure-context.ts';

/** A PEM certificate (chain) and its PEM private key. */
export type PemPair = { readonly certPem: string; readonly keyPem: string };

/**
 * The certificates of a configuration, chosen by SNI as Kong does (kong/runloop/certificate.lua
 * find_certificate): exact name, then `*.rest` (first label replaced; 3+ labels),
 * then `first.labels.*` (last label replaced), then the `*` SNI, then the node default.
 */
export class CertificateStore {
  readonly #byName = new Map<string, SecureContext>();
  readonly #default: SecureContext;
  readonly #catchAll: SecureContext | undefined;

  constructor(certificates: readonly Certificate[], snis: readonly Sni[], defaultCertificate: PemPair) {
    this.#default = secureContextFor(defaultCertificate.certPem, defaultCertificate.keyPem);
    const byId = new Map<string, SecureContext>();
    for (const c of certificates) {
      const certs = c.cert_alt !== null && c.key_alt !== null ? [c.cert, c.cert_alt] : c.cert;
      const keys = c.cert_alt !== null && c.key_alt !== null ? [c.key, c.key_alt] : c.key;
      byId.set(c.id, secureContextFor(certs, keys));
    }
    for (const s of snis) {
      const ctx = byId.get(s.certificate.id);
      if (ctx !== undefined) this.#byName.set(s.name.toLowerCase(), ctx);
    }
    this.#catchAll = this.#byName.get('*');
  }

  /** The node default certificate's context (clients that send no SNI get it). */
  get defaultContext(): SecureContext {
    return this.#default;
  }

  /** The context for a client's server name; undefined server name → the default certificate. */
  find(servername: string | undefined): SecureContext {
    if (servername === undefined || servername === '') return this.#default;
    const name = servername.toLowerCase();
    const exact = this.#byName.get(name);
    if (exact !== undefined) return exact;
    // Kong: "([^.]+)(\.[^.]+\.\S+)" → "*$2": needs at least three labels.
    const firstDot = name.indexOf('.');
    if (firstDot > 0 && name.indexOf('.', firstDot + 1) > firstDot + 1) {
      const prefixWildcard = this.#byName.get('*' + name.slice(firstDot));
      if (prefixWildcard !== undefined) return prefixWildcard;
    }
    const lastDot = name.lastIndexOf('.');
    if (lastDot > 0) {
      const suffixWildcard = this.#byName.get(name.slice(0, lastDot) + '.*');
      if (suffixWildcard !== undefined) return suffixWildcard;
    }
    return this.#catchAll ?? this.#default;
  }
}
