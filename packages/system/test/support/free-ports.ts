import { randomInt } from 'node:crypto';
import { createServer, type Server } from 'node:net';

// Below Linux's ephemeral range (32768-60999, /proc/sys/net/ipv4/ip_local_port_range): a port
// handed out here is never what another test's listen(0) or outgoing connection gets by
// chance in the seconds before the system under test binds it. Such a collision once let a
// test's readiness probe be answered by another test's esign instance.
const LOW = 20_000;
const HIGH = 32_767;

function tryListen(port: number): Promise<Server | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/**
 * `count` distinct ports that were free a moment ago (all held at once, then released), for
 * child processes that take their port from the environment: random ones outside the
 * ephemeral range, so concurrent test files do not collide. Another process could still grab
 * one in between; npm start then refuses the busy port, naming it.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    const ports: number[] = [];
    for (let tries = 0; ports.length < count; tries++) {
      if (tries > 1000) throw new Error(`no ${count} free ports between ${LOW} and ${HIGH}`);
      const port = randomInt(LOW, HIGH + 1);
      if (ports.includes(port)) continue;
      const server = await tryListen(port);
      if (!server) continue;
      servers.push(server);
      ports.push(port);
    }
    return ports;
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}
