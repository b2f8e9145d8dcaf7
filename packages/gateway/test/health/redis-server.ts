// A throwaway Debian redis-server for a test: a free port found by binding 127.0.0.1:0 first,
// no persistence, stopped in teardown.
import { createServer, connect } from 'node:net';
import { pollUntil } from '@signet/kit';
import { listenOnLoopback, startProcess, type StartedProcess } from '@signet/kit/testing';

export type RedisServer = {
  readonly url: string;
  readonly port: number;
  readonly process: StartedProcess;
  stop(): Promise<void>;
  /** SIGKILL: Redis dies as in a crash, without closing its connections politely. */
  kill(): Promise<void>;
};

async function freePort(): Promise<number> {
  const server = createServer();
  const port = await listenOnLoopback(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.on('error', () => resolve(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      socket.destroy();
      resolve(d.toString().startsWith('+PONG'));
    });
  });
}

/** Starts redis-server on a free loopback port (or `port`, to bring one back) and waits for its first PONG. */
export async function startRedisServer(wanted?: number): Promise<RedisServer> {
  const port = wanted ?? (await freePort());
  const proc = startProcess('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
  try {
    await pollUntil(() => ping(port), { what: `redis-server on ${port}`, timeoutMs: 10_000 });
  } catch (err) {
    await proc.stop();
    throw new Error(`redis-server did not start: ${proc.output()}`, { cause: err });
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    process: proc,
    stop: async () => void (await proc.stop()),
    kill: async () => {
      proc.child.kill('SIGKILL');
      await proc.exited;
    },
  };
}
