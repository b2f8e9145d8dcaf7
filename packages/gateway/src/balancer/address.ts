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
