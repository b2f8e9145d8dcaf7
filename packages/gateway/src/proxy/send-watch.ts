import type { EventEmitter } from 'node:events';

/**
 * nginx's send_timeout (60 s, which Kong's template leaves as is): "the connection is closed if
 * the client does not receive anything within this time". Without it, a client that never reads
 * (an HTTP/2 stream with a zero window) holds what the gateway queued for it for as long as it
 * keeps its connection.
 */
export const SEND_TIMEOUT_MS = 60_000;

/** What the watch reads: the bytes queued for the client (its socket, or its HTTP/2 stream). */
export type SendQueue = EventEmitter & { readonly writableLength: number; readonly destroyed: boolean };

const kWatched = Symbol('signet.sendWatch');

/**
 * Looks at `queue` every `ms` while bytes wait in it: when none left it since the last look (its
 * length did not shrink, no 'drain'), `cut` is called: the client received nothing for `ms`, as
 * nginx measures between two writes. Ends by itself once the queue is empty or destroyed; one
 * watch per queue at a time.
 */
export function watchSend(queue: SendQueue, ms: number, cut: () => void): void {
  const watched = queue as SendQueue & { [kWatched]?: true };
  if (watched[kWatched] === true || queue.destroyed || queue.writableLength === 0) return;
  watched[kWatched] = true;
  let last = queue.writableLength;
  let drained = false;
  const onDrain = (): void => {
    drained = true;
  };
  const stop = (): void => {
    clearInterval(timer);
    queue.off('drain', onDrain);
    watched[kWatched] = undefined;
  };
  queue.on('drain', onDrain);
  const timer = setInterval(() => {
    const now = queue.writableLength;
    if (queue.destroyed || now === 0) {
      stop();
      return;
    }
    if (!drained && now >= last) {
      stop();
      cut();
      return;
    }
    drained = false;
    last = now;
  }, ms);
  // A watch alone never keeps the process up.
  timer.unref();
}
