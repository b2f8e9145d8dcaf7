import { Balancer, isAlgorithmImplemented, type Address, type Random } from './balancer/index.ts';
import type { Service, Snapshot, Target, Upstream } from './declarative/types.ts';
import { hostHeaderFor, type ProxyRoute } from './proxy/proxy-route.ts';
import type { UpstreamTls } from './proxy/upstream-pool.ts';
import { Router, type RouterEntry } from './router/index.ts';
import { ConsumerIndex, PLUGIN_HANDLERS, PluginCombos } from './plugins/index.ts';
import { CertificateStore, type PemPair } from './tls/index.ts';

/** What one configuration compiles to; swapped as a whole, never mutated. */
export type RuntimeState = {
  readonly snapshot: Snapshot;
  readonly router: Router<ProxyRoute>;
  /** One balancer per upstream, by upstream name. */
  readonly balancers: ReadonlyMap<string, Balancer>;
  readonly certificates: CertificateStore;
  /** The load's plugins by scope (the gRPC proxy compiles its routes' plugins from it); undefined when none. */
  readonly plugins: PluginCombos | undefined;
};

export type RuntimeOptions = {
  /** The node default certificate (Kong ssl_cert). */
  readonly defaultCertificate: PemPair;
  /** Shuffles round-robin wheels; injected in tests. */
  readonly random?: Random;
  /** Asked for each address of a new balancer (health kept across reloads). */
  readonly isAddressHealthy?: (upstreamName: string, address: Address) => boolean;
  /** Told about configuration problems that do not stop a load (e.g. an algorithm not yet implemented). */
  readonly warn?: (message: string) => void;
};

// Balancer state (wheel, pointer, availability) is kept when none of this changed (Kong
// handler.lua rebuilds balancers only when upstreams/targets hashes change).
/**
 * TLS settings of an https service: verification follows tls_verify; the client certificate is
 * the service's, else its upstream's (Kong: service.client_certificate, upstream.client_certificate).
 */
function upstreamTls(snapshot: Snapshot, service: Service, upstream: Upstream | undefined): UpstreamTls {
  const ref = service.client_certificate ?? upstream?.client_certificate ?? null;
  const certificate = ref === null ? undefined : snapshot.certificates.find((c) => c.id === ref.id);
  return {
    rejectUnauthorized: service.tls_verify === true,
    ...(certificate ? { clientCertificate: { id: certificate.id, cert: certificate.cert, key: certificate.key } } : {}),
  };
}

function balancerSignature(upstream: Upstream, targets: readonly Target[]): string {
  return JSON.stringify([upstream.id, upstream.algorithm, upstream.healthchecks.threshold, targets.map((t) => [t.id, t.target, t.weight])]);
}

/**
 * Holds the running configuration: builds the router, the balancers and the certificate store
 * from a Snapshot and swaps them atomically; in-flight requests finish on the state they began with.
 */
export class Runtime {
  readonly #options: RuntimeOptions;
  #state: RuntimeState;
  #signatures = new Map<string, string>();

  constructor(snapshot: Snapshot, options: RuntimeOptions) {
    this.#options = options;
    this.#state = this.#build(snapshot, undefined);
  }

  /** The current state; read it once per request. */
  get state(): RuntimeState {
    return this.#state;
  }

  /** Replaces the configuration; throws (and keeps the old one) if it cannot be compiled. */
  load(snapshot: Snapshot): void {
    this.#state = this.#build(snapshot, this.#state);
  }

  /** Health checks take an address out or put it back; false if no such upstream/address. */
  setAddressStatus(upstreamName: string, addressKey: string, available: boolean): boolean {
    return this.#state.balancers.get(upstreamName)?.setAddressStatus(addressKey, available) ?? false;
  }

  #build(snapshot: Snapshot, previous: RuntimeState | undefined): RuntimeState {
    const balancers = new Map<string, Balancer>();
    const signatures = new Map<string, string>();
    const upstreamsByName = new Map<string, Upstream>();
    for (const upstream of snapshot.upstreams) {
      upstreamsByName.set(upstream.name, upstream);
      const targets = snapshot.targets.filter((t) => t.upstream.id === upstream.id);
      const signature = balancerSignature(upstream, targets);
      const old = previous?.balancers.get(upstream.name);
      if (old !== undefined && this.#signatures.get(upstream.name) === signature) {
        balancers.set(upstream.name, old);
      } else {
        if (!isAlgorithmImplemented(upstream.algorithm)) {
          this.#options.warn?.(`upstream ${upstream.name}: algorithm ${upstream.algorithm} is not implemented yet; using round-robin`);
        }
        balancers.set(upstream.name, new Balancer(upstream, targets, {
          ...(this.#options.random ? { random: this.#options.random } : {}),
          ...(this.#options.isAddressHealthy ? { isAddressHealthy: this.#options.isAddressHealthy } : {}),
        }));
      }
      signatures.set(upstream.name, signature);
    }
    const services = new Map(snapshot.services.map((s) => [s.id, s]));
    // Plugins and the consumers they authenticate are compiled once per load, per route.
    const combos = snapshot.plugins.length === 0 ? undefined : new PluginCombos(snapshot.plugins, PLUGIN_HANDLERS, new ConsumerIndex(snapshot));
    const entries: RouterEntry<ProxyRoute>[] = [];
    for (const route of snapshot.routes) {
      // Kong leaves routes without an enabled HTTP(S) service out of the router.
      const service = route.service === null ? undefined : services.get(route.service.id);
      if (service === undefined || !service.enabled) continue;
      if (service.protocol !== 'http' && service.protocol !== 'https') continue;
      const upstream = upstreamsByName.get(service.host);
      const tls = service.protocol === 'https' ? upstreamTls(snapshot, service, upstream) : undefined;
      const plugins = combos?.forRoute(route.id, service.id);
      const value: ProxyRoute = upstream !== undefined
        ? { route, service, upstream, balancer: balancers.get(upstream.name), endpoint: undefined, endpointHostHeader: '', tls, plugins }
        : {
            route, service, upstream: undefined, balancer: undefined,
            endpoint: { host: service.host, port: service.port, key: `${service.host.includes(':') ? `[${service.host}]` : service.host}:${service.port}` },
            endpointHostHeader: hostHeaderFor(service.host, service.port, service.protocol),
            tls,
            plugins,
          };
      entries.push({ route, servicePath: service.path, value });
    }
    const state: RuntimeState = {
      snapshot,
      router: new Router(entries),
      balancers,
      certificates: new CertificateStore(snapshot.certificates, snapshot.snis, this.#options.defaultCertificate),
      plugins: combos,
    };
    this.#signatures = signatures;
    return state;
  }
}
