import type { ListenAddress } from '../config.ts';
import type { Snapshot } from '../declarative/types.ts';

// The configuration between a node's primary (its owner: kong.yml at start, POST /config after)
// and its workers. Tagged so it shares node:cluster's IPC channel with the health messages.
export const CONFIG_TAG = 'signet:config';

/**
 * Worker → primary: `request` the current snapshot; `ready` once its listeners are bound;
 * `loaded` / `rejected` answer a reload `round` (cluster-config.ts). Primary → worker:
 * `snapshot`, with the `round` to answer when it is a POST /config the primary waits on.
 */
export type ConfigMessage =
  | { readonly tag: typeof CONFIG_TAG; readonly k: 'request' }
  | { readonly tag: typeof CONFIG_TAG; readonly k: 'snapshot'; readonly snapshot: Snapshot; readonly round?: number }
  | { readonly tag: typeof CONFIG_TAG; readonly k: 'ready'; readonly addresses: ListenAddress[] }
  | { readonly tag: typeof CONFIG_TAG; readonly k: 'loaded'; readonly round: number }
  | { readonly tag: typeof CONFIG_TAG; readonly k: 'rejected'; readonly round: number; readonly error: string };

/** True for a message of this protocol (other IPC traffic is left alone). */
export function isConfigMessage(message: unknown): message is ConfigMessage {
  return typeof message === 'object' && message !== null && (message as { tag?: unknown }).tag === CONFIG_TAG;
}
