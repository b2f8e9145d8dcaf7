// A set of addresses and CIDR ranges, IPv4 and IPv6 kept apart as lua-resty-ipmatcher keeps
// them (kong/plugins/ip-restriction/handler.lua matches with it): `::/0` does not take in
// IPv4 clients. An IPv4 client seen on a dual-stack socket (::ffff:a.b.c.d) is matched as IPv4.
import { BlockList, isIP } from 'node:net';

/** Kong's typedefs.ip_or_cidr: an IPv4/IPv6 address, optionally with a /prefix in range. */
export function isIpOrCidr(value: string): boolean {
  const slash = value.indexOf('/');
  const ip = slash === -1 ? value : value.slice(0, slash);
  const family = isIP(ip);
  if (family === 0) return false;
  if (slash === -1) return true;
  const prefix = value.slice(slash + 1);
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

const MAPPED_V4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** The address as matched: an IPv4-mapped IPv6 address as its IPv4 form. */
export const plainAddress = (address: string): string => MAPPED_V4.exec(address)?.[1] ?? address;

/** Addresses and ranges; `has` answers for one client address. */
export class IpSet {
  readonly #v4 = new BlockList();
  readonly #v6 = new BlockList();

  /** Entries must pass isIpOrCidr (the schema checked them); throws TypeError otherwise. */
  constructor(entries: Iterable<string>) {
    for (const entry of entries) {
      if (!isIpOrCidr(entry)) throw new TypeError(`invalid ip or cidr range: '${entry}'`);
      const [ip = '', prefix] = entry.split('/');
      const family = isIP(ip) === 4 ? 'ipv4' : 'ipv6';
      const list = family === 'ipv4' ? this.#v4 : this.#v6;
      list.addSubnet(ip, prefix === undefined ? (family === 'ipv4' ? 32 : 128) : Number(prefix), family);
    }
  }

  /** Whether the address is in the set; false for anything that is not an IP address. */
  has(address: string): boolean {
    const plain = plainAddress(address);
    const family = isIP(plain);
    if (family === 4) return this.#v4.check(plain, 'ipv4');
    if (family === 6) return this.#v6.check(plain, 'ipv6');
    return false;
  }
}
