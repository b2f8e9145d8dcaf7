import { channel } from 'node:diagnostics_channel';
import { Socket, type Server, type SocketConstructorOpts } from 'node:net';
import { getDefaultHighWaterMark } from 'node:stream';

// node 20's net accepts each connection with `new Socket({ handle, allowHalfOpen, ... })`. Given
// any options object, that constructor takes a slow path (~7 µs against ~0.3 µs with none, a
// loop of 300k) and, worse, the sockets it builds outlive young-generation GC: every accepted
// socket is promoted and freed only by a mark-compact. Under `Connection: close` load that made
// scavenges of 7-14 ms and a mark-compact every ~3 s per worker, the tail of the close p99
// (docs/benchmarks.md, "Lean client leg"). Built as `new Socket()` and then given its handle,
// as below, a socket is the same object, at none of that cost.

type ClientHandle = { getAsyncId(): number; close(): void } & Record<PropertyKey, unknown>;
type ListenHandle = { onconnection: (err: number, handle: ClientHandle) => void };
type NetServerInternals = {
  _handle: ListenHandle | null;
  _connections: number;
  blockList?: unknown;
  noDelay?: boolean;
  keepAlive?: boolean;
  pauseOnConnect?: boolean;
  highWaterMark?: number;
  allowHalfOpen?: boolean;
};
type NetSocketInternals = { _handle: unknown; server: Server | null; _server: Server | null } & Record<symbol, unknown>;

/** Where net links a socket and its handle (lib/net.js initSocketHandle), learnt once from a socket it builds. */
type Links = { readonly owner: symbol; readonly asyncId: symbol; readonly onread: unknown };
let links: Links | null | undefined;

const serverSocketChannel = channel('net.server.socket');

function learnLinks(): Links | null {
  const probe: Record<PropertyKey, unknown> = { getAsyncId: () => -1 };
  // net's own constructor path, around a stand-in handle (`handle` is a private option).
  const options = { handle: probe, manualStart: true };
  const socket = new Socket(options as SocketConstructorOpts);
  const owner = Object.getOwnPropertySymbols(probe).find((s) => probe[s] === socket);
  const asyncId = Object.getOwnPropertySymbols(socket).find((s) => s.description === 'async_id_symbol');
  const onread = probe.onread;
  (socket as unknown as NetSocketInternals)._handle = null;
  if (owner === undefined || asyncId === undefined || typeof onread !== 'function') return null;
  return { owner, asyncId, onread };
}

/** The server's options are all ones a socket built without options can be given afterwards (below). */
function plainOptions(server: NetServerInternals): boolean {
  return server.keepAlive !== true && server.pauseOnConnect !== true && server.blockList === undefined &&
    (server.highWaterMark === undefined || server.highWaterMark === getDefaultHighWaterMark(false));
}

/**
 * Makes a listening server build the sockets it accepts without net's options path (above). The
 * socket, its handle, the server's connection count and its 'connection' event are as net's own
 * accept makes them; connections refused by maxConnections still go through net. Returns
 * false, changing nothing, on a node other than 20, when the server is not listening, has
 * options this does not give (keepAlive, pauseOnConnect, a highWaterMark or a blockList of its
 * own), or this node keeps those links elsewhere.
 */
export function fastAccept(server: Server, nodeVersion = process.versions.node): boolean {
  // What follows mirrors node 20's accept (lib/net.js onconnection and the Socket constructor);
  // another major keeps net's own until it is checked against that one.
  if (!nodeVersion.startsWith('20.')) return false;
  const internals = server as unknown as NetServerInternals;
  const listening = internals._handle;
  if (listening === null || typeof listening.onconnection !== 'function' || !plainOptions(internals)) return false;
  links ??= learnLinks();
  if (links === null) return false;
  const { owner, asyncId, onread } = links;
  const netAccept = listening.onconnection;
  listening.onconnection = function onconnection(this: ListenHandle, err: number, handle: ClientHandle): void {
    if (err !== 0 || (server.maxConnections > 0 && internals._connections >= server.maxConnections)) {
      netAccept.call(this, err, handle);
      return;
    }
    const socket = new Socket();
    const s = socket as unknown as NetSocketInternals;
    s._handle = handle;
    s[asyncId] = handle.getAsyncId();
    handle[owner] = socket;
    handle.onread = onread;
    socket.allowHalfOpen = internals.allowHalfOpen === true;
    if (internals.noDelay === true) socket.setNoDelay(true);
    // net's constructor starts reading this way.
    socket.read(0);
    internals._connections++;
    s.server = server;
    s._server = server;
    server.emit('connection', socket);
    if (serverSocketChannel.hasSubscribers) serverSocketChannel.publish({ socket });
  };
  return true;
}
