import { createServer, type Server } from 'node:net';
import { listenOnLoopback } from '@signet/kit/testing';

/**
 * `count` distinct ports that were free a moment ago (all held at once, then released), for
 * child processes that take their port from the environment. Another process could grab one in
 * between; start-up then fails loudly, never silently.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    const ports: number[] = [];
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      ports.push(await listenOnLoopback(server));
    }
    return ports;
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}
