import type { ListenAddress } from '../config.ts';

/** A bound listener as a URL, for the start-up log lines. */
export function listenUrl(a: ListenAddress): string {
  return `${a.ssl ? 'https' : 'http'}://${a.host.includes(':') ? `[${a.host}]` : a.host}:${a.port}`;
}
