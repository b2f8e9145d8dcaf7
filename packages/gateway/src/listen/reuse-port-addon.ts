import { createRequire } from 'node:module';
import { getSystemErrorName } from 'node:util';
import { buildNativeAddon, NATIVE_BUILD_DIR, type NativeAddon } from '../native/build-native-addon.ts';

// Kong's `reuseport` listen flag needs SO_REUSEPORT, which node 20's net cannot set: a small
// N-API helper (native/reuse-port.c) does.
const REUSE_PORT: NativeAddon = { name: 'reuse-port', purpose: 'the reuseport flag', what: 'socket helper' };

type Addon = { bind(ip: string, port: number, v6only?: number): number };
let addon: Addon | undefined;

/** The helper's path, built first if needed (build-native-addon.ts). */
export function buildReusePortAddon(buildDir = NATIVE_BUILD_DIR, cc = process.env.CC ?? 'cc'): string {
  return buildNativeAddon(REUSE_PORT, buildDir, cc);
}

/**
 * A bound, non-blocking TCP socket on ip:port with SO_REUSEPORT set; node listens on its
 * descriptor. `v6only`: IPV6_V6ONLY for an IPv6 address (Kong's `ipv6only`); absent, the system's.
 */
export function bindReusePort(ip: string, port: number, v6only?: boolean): number {
  addon ??= createRequire(import.meta.url)(buildReusePortAddon()) as Addon;
  const fd = v6only === undefined ? addon.bind(ip, port) : addon.bind(ip, port, v6only ? 1 : 0);
  if (fd < 0) {
    const code = getSystemErrorName(fd);
    throw Object.assign(new Error(`listen ${code}: ${ip}:${port} (reuseport)`), { code, syscall: 'listen', address: ip, port });
  }
  return fd;
}
