import { createServer, type ServerResponse } from 'node:http';
import type { TestContext } from 'node:test';
import { listenOnLoopback } from '@signet/kit/testing';

/** A listener the test holds: what it has received, how many requests are open, and the gate. */
export type HoldingListener = {
  readonly url: string;
  /** Paths in the order their requests arrived. */
  readonly arrived: string[];
  /** Requests open now (received, not yet answered), and the most ever open at once. */
  readonly open: () => number;
  readonly maxOpen: () => number;
  /** The most requests of held paths open at once (the ones `holds` names, held or answered). */
  readonly maxHeld: () => number;
  /** Answers every held request with 200, and every later one at once. */
  readonly releaseAll: () => void;
};

/**
 * A Connect listener on 127.0.0.1:0 that holds each request whose path `holds` names open until
 * the test calls releaseAll() (a slow tenant's listener without timers), and answers the others
 * 200 at once. Closed in teardown, held requests included.
 */
export async function startHoldingListener(t: TestContext, holds: (path: string) => boolean): Promise<HoldingListener> {
  const arrived: string[] = [];
  const held: ServerResponse[] = [];
  let open = 0;
  let maxOpen = 0;
  let heldOpen = 0;
  let maxHeld = 0;
  let released = false;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '';
      arrived.push(path);
      open++;
      maxOpen = Math.max(maxOpen, open);
      res.on('close', () => open--);
      if (holds(path)) {
        heldOpen++;
        maxHeld = Math.max(maxHeld, heldOpen);
        res.on('close', () => heldOpen--);
      }
      if (released || !holds(path)) res.writeHead(200).end('ok');
      else held.push(res);
    });
  });
  const port = await listenOnLoopback(server);
  t.after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    arrived,
    open: () => open,
    maxOpen: () => maxOpen,
    maxHeld: () => maxHeld,
    releaseAll: () => {
      released = true;
      for (const res of held.splice(0)) res.writeHead(200).end('ok');
    },
  };
}
