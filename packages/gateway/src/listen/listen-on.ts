import { lookup } from 'node:dns/promises';
import { isIP, type Server } from 'node:net';
import type { ListenAddress } from '../config.ts';
import { bindReusePort } from './reuse-port-addon.ts';

// net.Server's own listen step for a descriptor (node's lib/net.js setupListenHandle): unlike
// listen({ fd }), it does not go through node:cluster, which would ask the primary to listen on
// that number in its own process.
type ListenOnDescriptor = { _listen2(address: null, port: null, addressType: null, backlog: number, fd: number): void };

/** node's default, as nginx's is 511 too. */
const DEFAULT_BACKLOG = 511;

/**
 * Listens as Kong's listen flags say. `reuseport`: this process binds its own socket with
 * SO_REUSEPORT, so in a node:cluster worker the kernel spreads connections over the workers'
 * sockets instead of the primary accepting each one and handing it over (round-robin, node's
 * default). `backlog=N`: the accept queue's length (the kernel caps it at net.core.somaxconn).
 */
export async function listenOn(server: Server, address: ListenAddress): Promise<void> {
  const backlog = address.backlog ?? DEFAULT_BACKLOG;
  const ip = address.reuseport === true && isIP(address.host) === 0 ? (await lookup(address.host)).address : address.host;
  await new Promise<void>((resolve, reject) => {
    const fail = (err: Error): void => {
      server.off('listening', done);
      reject(err);
    };
    const done = (): void => {
      server.off('error', fail);
      resolve();
    };
    server.once('error', fail);
    server.once('listening', done);
    if (address.reuseport !== true) {
      server.listen({ host: address.host, port: address.port, backlog });
      return;
    }
    let fd: number;
    try {
      fd = bindReusePort(ip, address.port);
    } catch (err) {
      fail(err as Error);
      return;
    }
    (server as Server & ListenOnDescriptor)._listen2(null, null, null, backlog, fd);
  });
}
