import type { Server } from 'node:net';

/**
 * Makes a listener's close() run `drain` first. A net.Server's close() waits for every
 * connection, and a cluster worker's disconnect closes its listeners before the worker's own
 * shutdown runs (src/cluster/worker.ts): each side serving the listener (HTTP/1.1, HTTP/2, the
 * sockets not served yet) lets go of its idle connections here. Sides added later drain first.
 */
export function drainOnClose(server: Server, drain: () => void): void {
  const close = server.close.bind(server);
  server.close = (callback?: (err?: Error) => void) => {
    drain();
    return close(callback);
  };
}
