import { Balancer, isAlgorithmImplemented, type Address, type Random } from './balancer/index.ts';
import type { Snapshot, Target, Upstream } from './declarative/types.ts';
import { compileGrpcState, type GrpcState } from './grpc/compile-grpc-state.ts';
import { healthchecksOn } from './health/checks-on.ts';
import { compileProxyRoute, type ProxyRoute, type TargetSources } from './proxy/proxy-route.ts';
import { Router, type RouterEntry } from './router/index.ts';
import { compileStreamState, type StreamState } from './stream/compile-stream-state.ts';
import { ConsumerIndex, PLUGIN_HANDLERS, PluginCombos, REDIS_COUNTERS, redisSettingsOf, type RoutePlugins } from './plugins/index.ts';
import { CertificateStore, type PemPair } from './tls/index.ts';

/** What one configuration compiles to; swapped as a whole, never mutated. */
export type RuntimeState = {
  readonly snapshot: Snapshot;
  /** http/https routes, for the HTTP proxy. */
  readonly router: Router<ProxyRoute>;
  /** grpc/grpcs routes, for the gRPC proxy. */
  readonly grpc: GrpcState;
  /** tcp/tls/tls_passthrough routes, for the stream proxy. */
  readonly stream: StreamState;
  /** One balancer per upstream, by upstream name. */
  readonly balancers: ReadonlyMap<string, Balancer>;
  readonly certificates: CertificateStore;
  /** The globally configured plugins: their response phases run on requests no route matched. */
  readonly globalPlugins: RoutePlugins | undefined;
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
function balancerSignature(upstream: Upstream, targets: readonly Target[]): string {
  // Checks turned off (or on) rebuild it too: a reused balancer would keep the addresses the
  // old checks took out, with nothing left to put them back.
  return JSON.stringify([upstream.id, upstream.algorithm, upstream.healthchecks.threshold, healthchecksOn(upstream.healthchecks), targets.map((t) => [t.id, t.target, t.weight])]);
}

/**
 * Holds the running configuration: builds the balancers, one target per route (ProxyRoute,
 * shared by the HTTP, gRPC and stream proxies), their routers and the certificate store from a
 * Snapshot and swaps them atomically; in-flight requests finish on the state they began with.
 */
export class Runtime {
  readonly #options: RuntimeOptions;
  #state: RuntimeState;
  #signatures = new Map<string, string>();

  constructor(snapshot: Snapshot, options: RuntimeOptions) {
    this.#options = options;
    const built = this.#build(snapshot, undefined, options.isAddressHealthy);
    this.#state = built.state;
    this.#signatures = built.signatures;
  }

  /** The current state; read it once per request. */
  get state(): RuntimeState {
    return this.#state;
  }

  /** Replaces the configuration; throws (and keeps the old one) if it cannot be compiled. */
  load(snapshot: Snapshot): void {
    this.prepare(snapshot)();
  }

  /**
   * {@link load} in two steps: compiles the configuration (throwing, with nothing changed, if it
   * cannot be) and returns the function that swaps it in; call it right after. New balancers ask
   * `isAddressHealthy` (default the option's): the health state the node is about to commit
   * with it (cluster/load-snapshot.ts).
   */
  prepare(snapshot: Snapshot, isAddressHealthy = this.#options.isAddressHealthy): () => void {
    const built = this.#build(snapshot, this.#state, isAddressHealthy);
    return () => {
      this.#state = built.state;
      this.#signatures = built.signatures;
      // Redis connections of plugins the new configuration no longer has are closed.
      REDIS_COUNTERS.retain(redisSettingsOf(snapshot.plugins));
    };
  }

  /** Health checks take an address out or put it back; false if no such upstream/address. */
  setAddressStatus(upstreamName: string, addressKey: string, available: boolean): boolean {
    return this.#state.balancers.get(upstreamName)?.setAddressStatus(addressKey, available) ?? false;
  }

  #build(
    snapshot: Snapshot,
    previous: RuntimeState | undefined,
    isAddressHealthy: RuntimeOptions['isAddressHealthy'],
  ): { state: RuntimeState; signatures: Map<string, string> } {
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
          ...(isAddressHealthy ? { isAddressHealthy } : {}),
        }));
      }
      signatures.set(upstream.name, signature);
    }
    const services = new Map(snapshot.services.map((s) => [s.id, s]));
    // Plugins and the consumers they authenticate are compiled once per load, per route.
    const plugins = snapshot.plugins.length === 0 ? undefined : new PluginCombos(snapshot.plugins, PLUGIN_HANDLERS, new ConsumerIndex(snapshot));
    const sources: TargetSources = { snapshot, upstreams: upstreamsByName, balancers, plugins };
    const targets: ProxyRoute[] = [];
    const entries: RouterEntry<ProxyRoute>[] = [];
    for (const route of snapshot.routes) {
      // Kong leaves routes without an enabled service out of its routers.
      const service = route.service === null ? undefined : services.get(route.service.id);
      if (service === undefined || !service.enabled) continue;
      const target = compileProxyRoute(sources, route, service);
      targets.push(target);
      if (service.protocol === 'http' || service.protocol === 'https') entries.push({ route, servicePath: service.path, value: target });
    }
    const state: RuntimeState = {
      snapshot,
      router: new Router(entries),
      grpc: compileGrpcState(targets),
      stream: compileStreamState(targets),
      balancers,
      certificates: new CertificateStore(snapshot.certificates, snapshot.snis, this.#options.defaultCertificate),
      globalPlugins: plugins?.global(),
    };
    return { state, signatures };
  }
}
