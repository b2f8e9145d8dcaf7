// proxy-cache's admin commands between the primary (which serves the admin API) and its workers
// (which hold the caches, plugins/proxy-cache/cache-dictionaries.ts). Tagged to share
// node:cluster's IPC channel.
import cluster from 'node:cluster';
import { runCacheCommand, type CacheCommand, type CacheReply } from '../plugins/proxy-cache/cache-commands.ts';
import type { PrimaryPort, WorkerHub } from './worker-hub.ts';

export const CACHE_TAG = 'signet:proxy-cache';

type CacheMessage =
  | { readonly tag: typeof CACHE_TAG; readonly k: 'ask'; readonly id: number; readonly command: CacheCommand }
  | { readonly tag: typeof CACHE_TAG; readonly k: 'reply'; readonly id: number; readonly reply: CacheReply };

const isCacheMessage = (m: unknown): m is CacheMessage => typeof m === 'object' && m !== null && (m as { tag?: unknown }).tag === CACHE_TAG;

// A worker that does not answer (exiting, stuck) does not hold the admin request for longer.
const REPLY_TIMEOUT_MS = 2000;

/** A worker answers the primary's cache commands from its own dictionaries. */
export function serveCacheCommands(port: PrimaryPort): () => void {
  return port.onMessage((m) => {
    if (!isCacheMessage(m) || m.k !== 'ask') return;
    port.send({ tag: CACHE_TAG, k: 'reply', id: m.id, reply: runCacheCommand(m.command, Date.now()) } satisfies CacheMessage);
  });
}

/** The primary's side: runs a command in every connected worker and gathers the replies. */
export function cacheCommandAsker(hub: WorkerHub): { ask: (command: CacheCommand) => Promise<readonly CacheReply[]>; close: () => void } {
  const pending = new Map<number, (workerId: number, reply: CacheReply) => void>();
  let next = 0;
  const off = hub.onMessage((workerId, m) => {
    if (isCacheMessage(m) && m.k === 'reply') pending.get(m.id)?.(workerId, m.reply);
  });
  const ask = (command: CacheCommand): Promise<readonly CacheReply[]> => new Promise((resolve) => {
    const ids = Object.entries(cluster.workers ?? {}).filter(([, w]) => w?.isConnected() === true).map(([id]) => Number(id));
    const id = next++;
    const replies = new Map<number, CacheReply>();
    const done = (): void => {
      pending.delete(id);
      clearTimeout(timer);
      resolve([...replies.values()]);
    };
    const timer = setTimeout(done, REPLY_TIMEOUT_MS);
    pending.set(id, (workerId, reply) => {
      replies.set(workerId, reply);
      if (ids.every((w) => replies.has(w))) done();
    });
    if (ids.length === 0) return done();
    for (const w of ids) hub.send(w, { tag: CACHE_TAG, k: 'ask', id, command } satisfies CacheMessage);
  });
  return { ask, close: off };
}
