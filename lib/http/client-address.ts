/**
 * The client address a request is counted under (SPEC "Client address").
 *
 * Without a trusted proxy it is the socket's address. With TRUST_PROXY, X-Forwarded-For is read from
 * the right (the hop nearest us) and the first address that is not a trusted proxy is the client:
 * anything left of it could have been written by the client itself. IPv6 clients are counted per
 * /64, the block one subscriber usually holds, so rotating addresses within it gains nothing.
 */
import { BlockList, isIP } from 'node:net';

export type TrustProxy = (address: string) => boolean;

export const trustNothing: TrustProxy = () => false;

/**
 * Parses TRUST_PROXY: empty/'off'/'false' trusts no proxy; otherwise a comma-separated list of
 * addresses, CIDR ranges and the words 'loopback' and 'private'. Throws on an unreadable entry.
 */
export function parseTrustProxy(setting: string | undefined): TrustProxy {
  const value = (setting ?? '').trim().toLowerCase();
  if (value === '' || value === 'off' || value === 'false' || value === '0') return trustNothing;
  const list = new BlockList();
  for (const raw of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (raw === 'loopback') {
      list.addSubnet('127.0.0.0', 8, 'ipv4');
      list.addAddress('::1', 'ipv6');
    } else if (raw === 'private') {
      list.addSubnet('10.0.0.0', 8, 'ipv4');
      list.addSubnet('172.16.0.0', 12, 'ipv4');
      list.addSubnet('192.168.0.0', 16, 'ipv4');
      list.addSubnet('fc00::', 7, 'ipv6');
    } else {
      const [address = '', bits] = raw.split('/');
      const family = isIP(address);
      if (family === 0)
        throw new Error(`TRUST_PROXY: '${raw}' is not an address, a CIDR range, 'loopback' or 'private'`);
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (bits === undefined) list.addAddress(address, type);
      else {
        const prefix = Number(bits);
        if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128)) {
          throw new Error(`TRUST_PROXY: '${raw}' has an invalid prefix length`);
        }
        list.addSubnet(address, prefix, type);
      }
    }
  }
  return (address) => {
    const plain = unmapIPv4(address);
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
  };
}

/** '::ffff:1.2.3.4' → '1.2.3.4'; anything else unchanged. */
export function unmapIPv4(address: string): string {
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address;
}

export function clientAddress(
  socketAddress: string,
  forwardedFor: string | string[] | undefined,
  trust: TrustProxy,
): string {
  const socket = unmapIPv4(socketAddress);
  if (!trust(socket) || forwardedFor === undefined) return socket;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
    .split(',')
    .map((s) => unmapIPv4(stripPort(s.trim())))
    .filter((s) => s !== '');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (isIP(hop) === 0) return socket; // a forged or garbled entry: don't trust anything left of it
    if (!trust(hop)) return hop;
  }
  return hops[0] ?? socket; // every hop is a trusted proxy: the leftmost is the origin
}

function stripPort(entry: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  if (bracketed) return bracketed[1]!;
  const v4WithPort = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(entry);
  return v4WithPort ? v4WithPort[1]! : entry;
}

/** The bucket an address is counted in: IPv4 as is, IPv6 by its /64 ('2001:db8:0:1::/64'). */
export function addressBucket(address: string): string {
  const plain = unmapIPv4(address);
  if (isIP(plain) !== 6) return plain;
  const groups = expandIPv6(plain);
  return (
    groups
      .slice(0, 4)
      .map((g) => g.replace(/^0+(?=.)/, ''))
      .join(':') + '::/64'
  );
}

function expandIPv6(address: string): string[] {
  const zoneless = address.split('%')[0]!.toLowerCase();
  let [head = '', tail] = zoneless.split('::') as [string, string | undefined];
  // An embedded IPv4 tail ('::ffff:1.2.3.4' was handled above; '64:ff9b::1.2.3.4' here) is two groups.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(tail ?? head);
  const toHex = (a: string, b: string) => ((Number(a) << 8) | Number(b)).toString(16);
  if (v4) {
    const replaced = `${toHex(v4[1]!, v4[2]!)}:${toHex(v4[3]!, v4[4]!)}`;
    if (tail !== undefined) tail = tail.replace(v4[0], replaced);
    else head = head.replace(v4[0], replaced);
  }
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - left.length - right.length;
  return [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right].map((g) =>
    g.padStart(4, '0'),
  );
}
