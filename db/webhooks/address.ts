/**
 * Whether a webhook URL's host is one the server must not call (server-side request forgery,
 * Standard Webhooks "SSRF"): loopback, private, link-local (the cloud metadata address 169.254.169.254),
 * carrier-grade NAT, unspecified, and their IPv6 and IPv4-mapped forms. Checked when an endpoint is
 * registered (an address literal or `localhost`) and before every attempt on the addresses the name
 * resolves to now, unless WEBHOOK_ALLOW_PRIVATE is on. A name that resolves differently between the
 * lookup and the connection (DNS rebinding) is not caught; an operator who needs that puts an egress
 * proxy in front (docs/operations.md).
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { unmapIPv4 } from '../../lib/http/client-address.ts';

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const plain = unmapIPv4(address.replace(/^\[|\]$/g, ''));
  const family = isIP(plain);
  return family !== 0 && blocked.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}

/** A host written as a private address, or a loopback name: refused at registration. */
export function isPrivateHostLiteral(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || isPrivateAddress(host);
}

/** The first private address `hostname` resolves to now, or null (a lookup failure is the attempt's own error). */
export async function privateAddressOf(hostname: string): Promise<string | null> {
  if (isIP(hostname.replace(/^\[|\]$/g, ''))) return isPrivateAddress(hostname) ? hostname : null;
  const addresses = await lookup(hostname, { all: true });
  return addresses.find((a) => isPrivateAddress(a.address))?.address ?? null;
}
