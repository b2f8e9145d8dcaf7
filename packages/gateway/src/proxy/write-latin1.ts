import type { Socket } from 'node:net';
import { getSystemErrorName } from 'node:util';

// node's stream binding (lib/internal/stream_base_commons.js writes through it). Used directly,
// a write skips the Writable machinery (writeOrBuffer, the write request, the after-write tick):
// about 3 % of the gateway's CPU per keep-alive request, two writes each (docs/benchmarks.md).
type WriteReq = {
  handle: unknown;
  oncomplete: (this: WriteReq, status: number) => void;
  socket: Socket | undefined;
};
type StreamBinding = { WriteWrap: new () => WriteReq; streamBaseState: Int32Array; kLastWriteWasAsync: number };
type WritableHandle = { writeLatin1String?: (req: WriteReq, text: string) => number };
type SocketInternals = { _handle: WritableHandle | null; connecting: boolean; _unrefTimer?: () => void };

function loadBinding(): StreamBinding | undefined {
  try {
    const b = (process as unknown as { binding(name: string): Partial<StreamBinding> }).binding('stream_wrap');
    if (typeof b.WriteWrap === 'function' && b.streamBaseState instanceof Int32Array && typeof b.kLastWriteWasAsync === 'number') return b as StreamBinding;
  } catch {
    // A node without process.binding('stream_wrap'): every write takes socket.write.
  }
  return undefined;
}

const binding = loadBinding();
/** The request object of the next direct write: a write that completes at once never keeps it. */
let spare = binding === undefined ? undefined : new binding.WriteWrap();
/** Sockets with a direct write still queued in libuv: their next writes go through socket.write. */
const inFlight = new WeakSet<Socket>();

function writeError(code: number): Error {
  const name = getSystemErrorName(code);
  return Object.assign(new Error(`write ${name}`), { code: name, errno: code, syscall: 'write' });
}

function onComplete(this: WriteReq, status: number): void {
  const socket = this.socket!;
  this.socket = undefined;
  inFlight.delete(socket);
  if (status < 0) {
    socket.destroy(writeError(status));
    return;
  }
  (socket as unknown as SocketInternals)._unrefTimer?.();
  socket.emit('drain');
}

/**
 * Every byte written to `socket` is in the kernel: nothing waits in the Writable's buffer or in
 * a direct write libuv still holds (TLS never counts as settled: its close_notify needs end()).
 */
export function writesSettled(socket: Socket): boolean {
  return (socket as { encrypted?: boolean }).encrypted !== true && socket.writableLength === 0 && !inFlight.has(socket);
}

/**
 * socket.write(text, 'latin1'), straight to a TCP socket's handle when nothing is queued ahead
 * of it; otherwise (TLS, whose writes always complete later; or a node without the binding)
 * through socket.write, so bytes keep their order. Returns false when bytes wait: 'drain'
 * follows once they are written.
 * A write that waits is not counted in writableLength: at most one such write per socket (the
 * next writes take socket.write until it completes), so what escapes back-pressure is bounded.
 */
export function writeLatin1(socket: Socket, text: string): boolean {
  const s = socket as unknown as SocketInternals;
  const handle = s._handle;
  if (
    spare === undefined || handle === null || typeof handle.writeLatin1String !== 'function' || s.connecting ||
    (socket as { encrypted?: boolean }).encrypted === true ||
    socket.writableLength !== 0 || socket.writableCorked !== 0 || !socket.writable || inFlight.has(socket)
  ) {
    // Behind a waiting direct write the caller waits too: its 'drain' comes from onComplete.
    return socket.write(text, 'latin1') && !inFlight.has(socket);
  }
  const req = spare;
  req.handle = handle;
  req.oncomplete = onComplete;
  const err = handle.writeLatin1String(req, text);
  const waits = err === 0 && binding!.streamBaseState[binding!.kLastWriteWasAsync] !== 0;
  // Unless libuv holds it, the spare request outlives the write: it must not keep this socket's
  // handle (and so the socket and its connection) alive after the socket closes.
  if (!waits) req.handle = null;
  if (err !== 0) {
    socket.destroy(writeError(err));
    return false;
  }
  // As socket.write does: activity postpones the socket's inactivity timeout.
  s._unrefTimer?.();
  if (!waits) return true;
  // libuv holds `req` until the write completes (oncomplete).
  spare = new binding!.WriteWrap();
  req.socket = socket;
  inFlight.add(socket);
  return false;
}
