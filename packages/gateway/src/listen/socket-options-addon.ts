import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { getSystemErrorName } from 'node:util';
import { buildNativeAddon, NATIVE_BUILD_DIR, type NativeAddon } from '../native/build-native-addon.ts';
import type { ListenKeepalive } from '../config.ts';

// Kong's `so_keepalive` and `deferred` listen flags need TCP options node 20 cannot set: a small
// N-API helper (native/socket-options.c) does.
const SOCKET_OPTIONS: NativeAddon = { name: 'socket-options', purpose: 'the so_keepalive or deferred flag', what: 'socket options helper' };

type Addon = {
  keepalive(fd: number, idle: number, interval: number, count: number): number;
  deferAccept(fd: number, seconds: number): number;
  read(fd: number): number[] | number;
};
let addon: Addon | undefined;

/**
 * The helper, built first if needed. listenOn loads it before a listener that needs it listens:
 * a failure is that listener's error, not its connections'.
 */
export function loadSocketOptions(): Addon {
  addon ??= createRequire(import.meta.url)(buildSocketOptionsAddon()) as Addon;
  return addon;
}

/** The helper's path, built first if needed (the cli builds it before any worker starts). */
export function buildSocketOptionsAddon(buildDir = NATIVE_BUILD_DIR, cc = process.env.CC ?? 'cc'): string {
  return buildNativeAddon(SOCKET_OPTIONS, buildDir, cc);
}

/** A handle's descriptor, or undefined (a node:cluster worker's stand-in for the primary's socket). */
export function descriptorOf(socketOrServer: unknown): number | undefined {
  const fd = (socketOrServer as { _handle?: { fd?: unknown } | null })._handle?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : undefined;
}

function systemError(r: number, what: string): Error {
  return Object.assign(new Error(`${what}: ${getSystemErrorName(r)}`), { code: getSystemErrorName(r) });
}

function check(r: number, what: string): void {
  if (r < 0) throw systemError(r, what);
}

/** nginx's so_keepalive on an accepted connection: probes after `idleS` quiet seconds, every `intervalS`, `count` of them (absent: the system's). */
export function setKeepalive(socket: Socket, keepalive: ListenKeepalive): void {
  const fd = descriptorOf(socket);
  if (fd === undefined) return;
  check(loadSocketOptions().keepalive(fd, keepalive.idleS ?? 0, keepalive.intervalS ?? 0, keepalive.count ?? 0), 'so_keepalive');
}

/** nginx's `deferred`: the listening socket hands a connection over once it has data (TCP_DEFER_ACCEPT, 1 s, as nginx sets it). */
export function deferAccept(fd: number): void {
  check(loadSocketOptions().deferAccept(fd, 1), 'deferred (TCP_DEFER_ACCEPT)');
}

/** What a socket has: [SO_KEEPALIVE, TCP_KEEPIDLE, TCP_KEEPINTVL, TCP_KEEPCNT, TCP_DEFER_ACCEPT, IPV6_V6ONLY or -1]. */
export function readSocketOptions(fd: number): number[] {
  const r = loadSocketOptions().read(fd);
  if (typeof r === 'number') throw systemError(r, 'getsockopt');
  return r;
}
