import { setFlagsFromString } from 'node:v8';

/**
 * The gateway's V8 settings. They hold from a process's first allocation only on its command
 * line: node:cluster starts the workers with them (cluster/primary.ts), and `npm start`
 * (packages/system/src/plan.ts) and the systemd unit start the gateway with them. A process
 * started by hand without them takes them here, cli.ts's first import, after the loader: partly.
 *
 * `--no-allocation-site-pretenuring`: V8 watches object literals whose objects survive
 * young-generation GC and then allocates what those sites make straight in the old generation.
 * The gateway's start (config, router, plugins, the loader: objects that live for the whole
 * run) taught it that ~30 sites were long-lived, among them sites that every connection
 * allocates from as well. Those per-connection objects, born old and dead within a
 * millisecond, then held the young objects they point to (listeners, the socket, the
 * connection) through every scavenge into the old generation: scavenges of 4-11 ms, a
 * mark-compact every few seconds per worker, and a `Connection: close` p99 of 15 ms where it is
 * 9 ms without (docs/benchmarks.md, "Lean client leg").
 */
export const V8_FLAGS: readonly string[] = ['--no-allocation-site-pretenuring'];

for (const flag of V8_FLAGS) setFlagsFromString(flag);
