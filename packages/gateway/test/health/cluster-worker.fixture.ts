// A node:cluster worker for cluster-health.test.ts: a WorkerHealth mirror, driven by the test
// (the primary) through `signet:test` IPC messages, answering queries the same way.
import { WorkerHealth } from '../../src/cluster/worker-health.ts';
import { processPrimaryPort } from '../../src/cluster/worker-hub.ts';
import type { Snapshot } from '../../src/declarative/types.ts';

type Command =
  | { tag: 'signet:test'; id: number; op: 'load'; snapshot: Snapshot }
  | { tag: 'signet:test'; id: number; op: 'report'; upstream: string; key: string; outcome: number | 'tcp_failure' | 'timeout' }
  | { tag: 'signet:test'; id: number; op: 'set'; upstream: string; keys: string[]; healthy: boolean }
  | { tag: 'signet:test'; id: number; op: 'query'; upstream: string; key: string };

const health = new WorkerHealth(processPrimaryPort());
const availability: string[] = [];
health.onAvailabilityChange((u, key, up) => availability.push(`${u} ${key} ${up ? 'up' : 'down'}`));

process.on('message', (raw: unknown) => {
  const cmd = raw as Command;
  if (cmd?.tag !== 'signet:test') return;
  let result: unknown = null;
  switch (cmd.op) {
    case 'load':
      health.load(cmd.snapshot);
      break;
    case 'report':
      health.reportPassive(cmd.upstream, cmd.key, cmd.outcome);
      break;
    case 'set':
      health.setStatus(cmd.upstream, cmd.keys, cmd.healthy);
      break;
    case 'query':
      result = {
        health: health.addressHealth(cmd.upstream, cmd.key) ?? null,
        healthy: health.isAddressHealthy(cmd.upstream, cmd.key),
        availability,
      };
      break;
  }
  process.send?.({ tag: 'signet:test', id: cmd.id, result });
});
process.send?.({ tag: 'signet:test', ready: true });
