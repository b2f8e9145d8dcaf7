import { lookup } from 'node:dns/promises';
import { isIP, type Server, type Socket } from 'node:net';
import { deferredNeedsOwnSocket, type ListenAddress } from '../config.ts';
import { bindReusePort } from './reuse-port-addon.ts';
import { deferAccept, descriptorOf, loadSocketOptions, setKeepalive } from './socket-options-addon.ts';

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
 * `ipv6only=on|off`: IPV6_V6ONLY. `so_keepalive`: TCP keep-alive probes on each accepted
 * connection (set as the server emits it, before anyone else sees it). `deferred`:
 * TCP_DEFER_ACCEPT on the listening socket, which must then be this process's own: a
 * node:cluster worker without `reuseport` only has a stand-in for the primary's, and is refused.
 */
export async function listenOn(server: Server, address: ListenAddress): Promise<void> {
  const keepalive = address.keepalive;
  if (keepalive !== undefined || address.deferred === true) loadSocketOptions();
  if (keepalive !== undefined) {
    server.prependListener('connection', (socket: Socket) => {
      try {
        setKeepalive(socket, keepalive);
      } catch (err) {
        // setsockopt(2) refused for this one connection (it is gone already): it is served, or
        // closed, as any other; anything else is a bug and is thrown.
        if ((err as { code?: unknown }).code === undefined) throw err;
      }
    });
  }
  await bind(server, address);
  if (address.deferred !== true) return;
  const fd = descriptorOf(server);
  if (fd === undefined) {
    server.close();
    throw new Error(deferredNeedsOwnSocket(address));
  }
  try {
    deferAccept(fd);
  } catch (err) {
    server.close();
    throw err;
  }
}

async function bind(server: Server, address: ListenAddress): Promise<void> {
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
      server.listen({ host: address.host, port: address.port, backlog, ...(address.ipv6only !== undefined ? { ipv6Only: address.ipv6only } : {}) });
      return;
    }
    let fd: number;
    try {
      fd = bindReusePort(ip, address.port, address.ipv6only);
    } catch (err) {
      fail(err as Error);
      return;
    }
    (server as Server & ListenOnDescriptor)._listen2(null, null, null, backlog, fd);
  });
}
