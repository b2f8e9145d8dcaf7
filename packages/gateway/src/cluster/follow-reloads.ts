import type { Logger } from 'pino';
import type { Snapshot } from '../declarative/types.ts';
import { CONFIG_TAG, isConfigMessage, type ConfigMessage } from './config-messages.ts';
import type { PrimaryPort } from './worker-hub.ts';

const reason = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * A worker's side of reloads: loads every snapshot the primary sends and answers the ones of a
 * reload round (`loaded` / `rejected`, cluster-config.ts). A snapshot that fails to load is
 * logged and leaves the running configuration serving: a worker dying on it would be replaced
 * by one asking for the same configuration, and the proxy would be down. Returns the function
 * that stops following.
 */
export function followReloads(port: PrimaryPort, load: (snapshot: Snapshot) => void, log: Pick<Logger, 'error'>): () => void {
  return port.onMessage((m) => {
    if (!isConfigMessage(m) || m.k !== 'snapshot') return;
    const error = loadOrKeep(m.snapshot, load, log);
    if (m.round === undefined) return;
    port.send(error === undefined
      ? { tag: CONFIG_TAG, k: 'loaded', round: m.round } satisfies ConfigMessage
      : { tag: CONFIG_TAG, k: 'rejected', round: m.round, error } satisfies ConfigMessage);
  });
}

/** Loads `snapshot`; one that fails is logged and the running configuration kept. Returns why it failed. */
export function loadOrKeep(snapshot: Snapshot, load: (snapshot: Snapshot) => void, log: Pick<Logger, 'error'>): string | undefined {
  try {
    load(snapshot);
    return undefined;
  } catch (e) {
    log.error({ hash: snapshot.hash, err: reason(e) }, 'configuration not loaded; keeping the running one');
    return reason(e);
  }
}
