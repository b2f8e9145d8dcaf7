import type { Socket } from 'node:net';

/** Called with each read: `n` bytes at the start of the buffer given to readInto; true = keep reading. */
export type ReadCallback = (n: number, buffer: Buffer) => boolean;

type UserBufferHandle = { useUserBuffer?: (buffer: Uint8Array) => void };

// net.Socket keeps its `onread` option under these private symbols; node reads them on every read
// (lib/internal/stream_base_commons.js onStreamRead), so setting them after construction works.
let kBuffer: symbol | undefined;
let kBufferCb: symbol | undefined;
let looked = false;

function findSymbols(socket: Socket): boolean {
  if (!looked) {
    looked = true;
    for (const s of Object.getOwnPropertySymbols(socket)) {
      if (s.description === 'kBuffer') kBuffer = s;
      else if (s.description === 'kBufferCb') kBufferCb = s;
    }
  }
  return kBuffer !== undefined && kBufferCb !== undefined;
}

/**
 * Makes an accepted socket (plain or TLS) read into `buffer` and hand each read to `callback`,
 * as net's `onread` option does for the sockets it creates (node offers no such option for a
 * server's sockets). A read then costs no allocation and skips the Readable machinery: about 5 %
 * of the gateway's CPU per keep-alive request (docs/benchmarks.md). The bytes are only valid
 * during the callback. pause()/resume(), 'end' and 'close' work as before.
 *
 * Returns false, leaving the socket as it was, when the socket already holds bytes in its
 * Readable buffer (a sniffed first read given back with unshift) or when this node does not
 * keep `onread` as expected; the caller then reads with 'data'.
 */
export function readInto(socket: Socket, buffer: Buffer, callback: ReadCallback): boolean {
  const handle = (socket as unknown as { _handle?: UserBufferHandle | null })._handle;
  if (typeof handle?.useUserBuffer !== 'function' || socket.readableLength !== 0 || socket.listenerCount('data') !== 0) return false;
  if (!findSymbols(socket)) return false;
  const own = socket as unknown as Record<symbol, unknown>;
  if (own[kBuffer!] !== null || own[kBufferCb!] !== null) return false;
  own[kBuffer!] = buffer;
  own[kBufferCb!] = callback;
  handle.useUserBuffer(buffer);
  return true;
}
