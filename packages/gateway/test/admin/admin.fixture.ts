// A running admin API over a real socket, with the runtime's snapshot holder played by a plain
// variable (the real runtime is wired by the data plane; this tests the admin surface alone).
import type { Server } from 'node:http';
import { issueCertificate } from '@signet/kit';
import { listenOnLoopback } from '@signet/kit/testing';
import { buildAdminServer, type AdminDeps } from '../../src/admin/index.ts';
import { parseDeclarativeConfig, type Snapshot } from '../../src/declarative/index.ts';

export const NODE_ID = '5a5a5a5a-0000-4000-8000-000000000001';
export const NOW = 1_700_000_000;

const pem = (text: string): string => `|\n${text.trim().split('\n').map((l) => `      ${l}`).join('\n')}\n`;
const example = issueCertificate({ commonName: 'example.test', dnsNames: ['example.test', '*.example.test'] });

/** The configuration the admin tests start from. */
export const KONG_YML = `_format_version: "3.0"
services:
  - name: esign
    host: esign-upstream
    routes:
      - name: api
        paths: [/restapi]
      - name: oauth
        paths: [/oauth]
  - name: other
    url: http://127.0.0.1:9999/x
upstreams:
  - name: esign-upstream
    targets:
      - target: 127.0.0.1:3001
        weight: 100
      - target: 127.0.0.1:3002
        weight: 0
      - target: 10.0.0.9
certificates:
  - id: 00000000-0000-4000-8000-00000000c001
    cert: ${pem(example.certPem)}    key: ${pem(example.keyPem)}    snis:
      - name: example.test
      - name: "*.example.test"
`;

/** A second, different configuration for reloads. */
export const RELOADED_YML = `_format_version: "3.0"
services:
  - name: fresh
    host: example.org
    routes:
      - name: fresh-route
        hosts: [fresh.test]
`;

export type AdminHarness = {
  readonly base: string;
  readonly server: Server;
  current: Snapshot;
  applied: Snapshot[];
  /** What the server reported through onError. */
  errors: unknown[];
  /** Replaced per test to make applyConfig slow or failing. */
  applyHook: (snapshot: Snapshot) => void | Promise<void>;
  close(): Promise<void>;
};

/** Starts an admin server on 127.0.0.1:0 over the fixture configuration. */
export async function startAdmin(extra: Partial<AdminDeps> = {}): Promise<AdminHarness> {
  const harness = {
    current: parseDeclarativeConfig(KONG_YML, { now: NOW }),
    applied: [] as Snapshot[],
    errors: [] as unknown[],
    applyHook: (() => undefined) as AdminHarness['applyHook'],
  };
  const server = buildAdminServer({
    snapshot: () => harness.current,
    applyConfig: async (snapshot) => {
      await harness.applyHook(snapshot);
      harness.current = snapshot;
      harness.applied.push(snapshot);
    },
    nodeId: NODE_ID,
    now: () => NOW,
    onError: (e) => harness.errors.push(e),
    ...extra,
  });
  const port = await listenOnLoopback(server);
  return Object.assign(harness, {
    base: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  });
}

/** A request's status, headers and parsed JSON body (undefined when empty). */
export async function call(
  base: string,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const res = await fetch(base + path, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}
