// An upstream on 127.0.0.1:0 that misbehaves on purpose, at the TCP level where it matters:
// answer, reset the connection half-way through a response, hang, answer late, or refuse
// (listener closed). Requests it sees are counted by path, so a test can prove what reached it.
import { createServer, type Server, type Socket } from 'node:net';
import { listenOnLoopback } from '@signet/kit/testing';

export type FaultMode = 'ok' | 'reset-mid-response' | 'hang' | 'slow';

export class FaultUpstream {
  mode: FaultMode = 'ok';
  /** Delay of the 'slow' mode. */
  slowMs = 200;
  /** Request heads seen, by path. */
  readonly seen = new Map<string, number>();
  readonly #sockets = new Set<Socket>();
  #server: Server;
  #port = 0;

  private constructor() {
    this.#server = this.#create();
  }

  static async start(): Promise<FaultUpstream> {
    const u = new FaultUpstream();
    u.#port = await listenOnLoopback(u.#server);
    return u;
  }

  get target(): string {
    return `127.0.0.1:${this.#port}`;
  }

  /** Requests seen on `path`. */
  count(path: string): number {
    return this.seen.get(path) ?? 0;
  }

  #create(): Server {
    const server = createServer((socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
      socket.on('error', () => undefined);
      let buffered = '';
      socket.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('latin1');
        // One request head at a time; bodies are not used by these tests (GETs).
        for (let end = buffered.indexOf('\r\n\r\n'); end !== -1; end = buffered.indexOf('\r\n\r\n')) {
          const head = buffered.slice(0, end);
          buffered = buffered.slice(end + 4);
          const path = (head.split(' ')[1] ?? '/').split('?')[0] ?? '/';
          this.seen.set(path, (this.seen.get(path) ?? 0) + 1);
          this.#answer(socket, path);
        }
      });
    });
    return server;
  }

  #answer(socket: Socket, path: string): void {
    const body = `ok ${path}`;
    const full = `HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
    switch (this.mode) {
      case 'ok':
        socket.write(full);
        return;
      case 'slow': {
        const timer = setTimeout(() => socket.write(full), this.slowMs);
        socket.once('close', () => clearTimeout(timer));
        return;
      }
      case 'hang':
        return;
      case 'reset-mid-response':
        // Headers and half the promised body, then a TCP RST.
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 1000\r\n\r\nhalf of the bo', () => socket.resetAndDestroy());
        return;
    }
  }

  /** Closes the listener and every connection: new connections are refused. */
  async refuse(): Promise<void> {
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => (this.#server.listening ? this.#server.close(() => resolve()) : resolve()));
  }

  /** Listens again on the same port (after refuse). */
  async accept(): Promise<void> {
    if (this.#server.listening) return;
    this.#server = this.#create();
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(this.#port, '127.0.0.1', () => resolve());
    });
  }

  async close(): Promise<void> {
    await this.refuse();
  }
}
