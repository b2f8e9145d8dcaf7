import { isIP } from 'node:net';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** True for an address of this machine's loopback interface. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return address === '::1' || (isIP(v4) === 4 && v4.startsWith('127.'));
}

/**
 * The signer's address for the audit trail. esign listens on loopback behind the gateway, so
 * the socket peer is the gateway; the gateway appends the address that connected to it to
 * X-Forwarded-For (Kong does the same). Only a loopback peer is trusted to say so, and only
 * the last entry counts: the ones before it are whatever the client itself sent.
 */
export function clientIp(peer: string | undefined, forwardedFor: string | string[] | undefined): string | undefined {
  if (peer === undefined || !LOOPBACK.has(peer) || forwardedFor === undefined) return peer;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
  const last = header.split(',').map((s) => s.trim()).filter(Boolean).at(-1);
  return last !== undefined && isIP(last) !== 0 ? last : peer;
}
