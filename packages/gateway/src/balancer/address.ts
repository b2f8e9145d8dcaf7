/**
 * One concrete ip:port the balancer hands out (Kong: an "address" of a target). A target names
 * one address here: hostnames are passed to the connector as they are (no per-A-record split).
 */
export type Address = {
  /** `host:port` as connected to; the key health reports and admin PUTs use. */
  readonly key: string;
  /** IP or hostname to connect to. */
  readonly host: string;
  readonly port: number;
  /** Kong weight, per address (targets.lua). 0 = in the balancer but never picked. */
  readonly weight: number;
  /** The target this address came from. */
  readonly targetId: string;
  /** The target string as written in kong.yml. */
  readonly target: string;
  /** Owned by the Balancer: false while health checks hold the address out. */
  available: boolean;
};

// Kong dao/targets.lua format_target: a target without a port gets 8000.
const DEFAULT_TARGET_PORT = 8000;

/** Splits a Kong target string (`ip`, `ip:port`, `name:port`, `[v6]:port`) into host and port. */
export function parseTarget(target: string): { host: string; port: number } {
  if (target.startsWith('[')) {
    const end = target.indexOf(']');
    const host = target.slice(1, end);
    const rest = target.slice(end + 1);
    return { host, port: rest.startsWith(':') ? Number(rest.slice(1)) : DEFAULT_TARGET_PORT };
  }
  const colon = target.lastIndexOf(':');
  // More than one colon without brackets is a bare IPv6 address.
  if (colon === -1 || target.indexOf(':') !== colon) return { host: target, port: DEFAULT_TARGET_PORT };
  return { host: target.slice(0, colon), port: Number(target.slice(colon + 1)) };
}
