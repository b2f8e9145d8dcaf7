// Real gRPC peers for the gRPC proxy tests: @grpc/grpc-js servers on 127.0.0.1:0 implementing
// test/grpc/echo.proto and grpc.health.v1 (switchable), clients for them, and a gateway (a
// GrpcProxy behind an h2c or h2 server) wired to real LocalHealth. Everything closes in t.after.
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { issueCertificate, type KeyPair } from '@signet/kit';
import { listenOnLoopback } from '@signet/kit/testing';
import type { Address } from '../../src/balancer/index.ts';
import type { Snapshot, Upstream } from '../../src/declarative/types.ts';
import { createGrpcServer, GrpcProxy } from '../../src/grpc/index.ts';
import { LocalHealth } from '../../src/health/local-health.ts';
import { passiveHealthHooks } from '../../src/proxy/passive-health-hooks.ts';
import type { AttemptOutcome } from '../../src/proxy/proxy-hooks.ts';
import { Runtime } from '../../src/runtime.ts';

const load = (file: string) =>
  grpc.loadPackageDefinition(protoLoader.loadSync(fileURLToPath(new URL(file, import.meta.url)), { keepCase: true, defaults: true }));
const echoPackage = load('./echo.proto') as unknown as { signet: { test: { Echo: grpc.ServiceClientConstructor } } };
const healthPackage = load('./health.proto') as unknown as { grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } } };

export type EchoRequest = { text: string; count: number };
export type EchoReply = { text: string; server: string };

/** A gRPC echo server; `serving` is what its health service answers. */
export type GrpcBackend = {
  readonly name: string;
  readonly port: number;
  serving: 'SERVING' | 'NOT_SERVING';
  calls: number;
  healthChecks: number;
  /** Shuts the server down now (a target that died). */
  stop(): void;
};

/** `clientCa`: the server requires a client certificate issued by it (mutual TLS). */
export async function startBackend(t: TestContext, name: string, tls?: KeyPair, clientCa?: string): Promise<GrpcBackend> {
  const server = new grpc.Server();
  const backend: GrpcBackend = { name, port: 0, serving: 'SERVING', calls: 0, healthChecks: 0, stop: () => server.forceShutdown() };
  server.addService(echoPackage.signet.test.Echo.service, {
    Say(call: grpc.ServerUnaryCall<EchoRequest, EchoReply>, cb: grpc.sendUnaryData<EchoReply>) {
      backend.calls++;
      const trailer = new grpc.Metadata();
      trailer.set('x-served-by', name);
      cb(null, { text: call.request.text, server: name }, trailer);
    },
    Count(call: grpc.ServerWritableStream<EchoRequest, EchoReply>) {
      backend.calls++;
      for (let i = 1; i <= call.request.count; i++) call.write({ text: `${call.request.text} ${i}`, server: name });
      const trailer = new grpc.Metadata();
      trailer.set('x-count', String(call.request.count));
      call.end(trailer);
    },
    Chat(call: grpc.ServerDuplexStream<EchoRequest, EchoReply>) {
      backend.calls++;
      call.on('data', (req: EchoRequest) => call.write({ text: req.text.toUpperCase(), server: name }));
      call.on('end', () => call.end());
    },
    Fail(call: grpc.ServerUnaryCall<EchoRequest, EchoReply>, cb: grpc.sendUnaryData<EchoReply>) {
      backend.calls++;
      cb({ code: grpc.status.UNAVAILABLE, details: `${name} is overloaded: ${call.request.text}` });
    },
  });
  server.addService(healthPackage.grpc.health.v1.Health.service, {
    Check(_call: grpc.ServerUnaryCall<unknown, unknown>, cb: grpc.sendUnaryData<{ status: string }>) {
      backend.healthChecks++;
      cb(null, { status: backend.serving });
    },
  });
  const credentials = tls
    ? grpc.ServerCredentials.createSsl(clientCa ? Buffer.from(clientCa) : null, [{ cert_chain: Buffer.from(tls.certPem), private_key: Buffer.from(tls.keyPem) }], clientCa !== undefined)
    : grpc.ServerCredentials.createInsecure();
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', credentials, (err, p) => (err ? reject(err) : resolve(p))));
  (backend as { port: number }).port = port;
  t.after(() => new Promise<void>((resolve) => {
    server.forceShutdown();
    resolve();
  }));
  return backend;
}

/** The Echo client type, with promise helpers for the tests. */
export type EchoClient = grpc.Client & {
  Say(req: Partial<EchoRequest>, md: grpc.Metadata, opts: grpc.CallOptions, cb: (err: grpc.ServiceError | null, res: EchoReply) => void): grpc.ClientUnaryCall;
  Count(req: Partial<EchoRequest>): grpc.ClientReadableStream<EchoReply>;
  Chat(): grpc.ClientDuplexStream<EchoRequest, EchoReply>;
  Fail(req: Partial<EchoRequest>, cb: (err: grpc.ServiceError | null, res: EchoReply) => void): grpc.ClientUnaryCall;
};

/** A client of the gateway (h2c, or TLS with this CA and SNI). */
export function echoClient(t: TestContext, port: number, tls?: { ca: string; servername: string }): EchoClient {
  const credentials = tls ? grpc.credentials.createSsl(Buffer.from(tls.ca)) : grpc.credentials.createInsecure();
  const options = tls ? { 'grpc.ssl_target_name_override': tls.servername, 'grpc.default_authority': tls.servername } : {};
  const client = new echoPackage.signet.test.Echo(`127.0.0.1:${port}`, credentials, options) as unknown as EchoClient;
  t.after(() => client.close());
  return client;
}

/** Result of a unary call: the reply or the error, and the trailing metadata. */
export type UnaryResult = { reply?: EchoReply; error?: grpc.ServiceError; trailers: Record<string, unknown> };

export function say(client: EchoClient, text: string, metadata: Record<string, string> = {}): Promise<UnaryResult> {
  return new Promise((resolve) => {
    let result: Omit<UnaryResult, 'trailers'> | undefined;
    let trailers: Record<string, unknown> | undefined;
    const finish = () => {
      if (result !== undefined && trailers !== undefined) resolve({ ...result, trailers });
    };
    const md = new grpc.Metadata();
    for (const [k, v] of Object.entries(metadata)) md.set(k, v);
    const call = client.Say({ text }, md, { deadline: Date.now() + 10_000 }, (error, reply) => {
      result = error ? { error } : { reply };
      finish();
    });
    call.on('status', (s: grpc.StatusObject) => {
      trailers = s.metadata.getMap();
      finish();
    });
  });
}

export type Attempt = { readonly upstream: string; readonly key: string; readonly outcome: AttemptOutcome };

export type GrpcGateway = { readonly port: number; readonly health: LocalHealth; readonly runtime: Runtime; readonly attempts: Attempt[] };

/** A GrpcProxy behind an h2c (or, with `ssl`, h2) server on 127.0.0.1:0, with real health. */
export async function startGrpcGateway(
  t: TestContext,
  snapshot: Snapshot,
  options: { ssl?: boolean; defaultCertificate?: KeyPair; trustedCa?: string[] } = {},
): Promise<GrpcGateway> {
  const health = new LocalHealth(options.trustedCa ? { trustedCa: options.trustedCa } : {});
  health.load(snapshot);
  const defaultCertificate = options.defaultCertificate ?? issueCertificate({ commonName: 'localhost', dnsNames: ['localhost'] });
  const runtime = new Runtime(snapshot, { defaultCertificate, isAddressHealthy: (u, a: Address) => health.isAddressHealthy(u, a.key) });
  health.onAvailabilityChange((u, key, up) => runtime.setAddressStatus(u, key, up));
  const attempts: Attempt[] = [];
  const passive = passiveHealthHooks(health);
  const proxy = new GrpcProxy({
    getState: () => runtime.state,
    hooks: {
      onAttempt(upstream: Upstream, address: Address, outcome: AttemptOutcome, retried: boolean) {
        attempts.push({ upstream: upstream.name, key: address.key, outcome });
        passive.onAttempt!(upstream, address, outcome, retried);
      },
    },
    ...(options.trustedCa ? { trustedCa: options.trustedCa } : {}),
  });
  const server = createGrpcServer(proxy, { ssl: options.ssl ?? false, defaultCertificate, certificates: () => runtime.state.certificates });
  const sessions = new Set<{ destroy(): void }>();
  server.on('session', (s) => sessions.add(s));
  const port = await listenOnLoopback(server);
  t.after(async () => {
    proxy.close();
    for (const s of sessions) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await health.close();
  });
  return { port, health, runtime, attempts };
}
