// Which network addresses an outgoing request (a webhook delivery) may reach. Refused unless
// allowed explicitly: loopback, private, shared (carrier-grade NAT), link-local, unspecified,
// multicast, broadcast, documentation and other reserved ranges, and every address of this
// host's own interfaces (its public address included), so that a webhook cannot be pointed at the
// server itself or at the network behind it. IPv6 forms that carry an IPv4 address (mapped
// `::ffff:127.0.0.1`, compatible `::127.0.0.1`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are
// judged by that address. Host names are resolved and every address they resolve to is judged;
// guardedLookup() is the resolver of the connection itself, so the address connected to is the
// one that was checked (a name that resolves elsewhere the second time cannot slip through).
//
// Odd spellings of IPv4 addresses (`http://0x7f.1`, `http://2130706433`, `http://127.1`) are
// normalised by the WHATWG URL parser before they get here (new URL(...).hostname).

import dns from 'node:dns';
import os from 'node:os';
import { isIP } from 'node:net';

/** [first address, prefix length, why] */
const V4_RANGES: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'unspecified ("this network")'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved (IETF protocol assignments)'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved (6to4 relay)'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved (benchmarking)'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved (and broadcast)'],
];

/** [first address, prefix length, why]; forms carrying an IPv4 address are handled apart */
const V6_RANGES: Array<[string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['100::', 64, 'reserved (discard)'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'private (unique local)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'private (site-local)'],
  ['ff00::', 8, 'multicast'],
];

function v4Number(address: string): number {
  const p = address.split('.').map(Number);
  return ((p[0] << 24) | (p[1] << 16) | (p[2] << 8) | p[3]) >>> 0;
}

/** The 16 bytes of an IPv6 address (zone index ignored). */
function v6Bytes(address: string): Uint8Array {
  const bare = address.replace(/%.*$/, '');
  const halves = bare.split('::');
  const groups = (s: string): number[] => {
    const out: number[] = [];
    if (s === '') return out;
    for (const g of s.split(':')) {
      if (g.includes('.')) {
        const n = v4Number(g);
        out.push(n >>> 16, n & 0xffff);
      } else out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  const all = [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 8; i++) {
    bytes[2 * i] = all[i] >> 8;
    bytes[2 * i + 1] = all[i] & 0xff;
  }
  return bytes;
}

function inV6(bytes: Uint8Array, first: Uint8Array, prefix: number): boolean {
  for (let bit = 0; bit < prefix; bit += 8) {
    const n = Math.min(8, prefix - bit);
    const mask = (0xff << (8 - n)) & 0xff;
    if ((bytes[bit >> 3] & mask) !== (first[bit >> 3] & mask)) return false;
  }
  return true;
}

const V4 = V4_RANGES.map(([a, prefix, why]) => ({ first: v4Number(a), mask: (~0 << (32 - prefix)) >>> 0, why }));
const V6 = V6_RANGES.map(([a, prefix, why]) => ({ first: v6Bytes(a), prefix, why }));

const v4Of = (b: Uint8Array, at: number) => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;

/** The IPv4 address an IPv6 one carries (mapped, compatible, NAT64, 6to4), if any. */
function embeddedV4(b: Uint8Array): string | undefined {
  const zeros = (from: number, to: number) => b.subarray(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4Of(b, 12); // ::ffff:a.b.c.d
  if (zeros(0, 12) && !zeros(12, 14)) return v4Of(b, 12); // ::a.b.c.d (deprecated), not :: or ::1
  // 64:ff9b::/96
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return v4Of(b, 12);
  if (b[0] === 0x20 && b[1] === 0x02) return v4Of(b, 2); // 2002:AABB:CCDD::/48
  return undefined;
}

/** This host's own interface addresses, canonical (what a webhook must not point back at). */
function ownAddresses(): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) out.add(canonical(a.address));
  }
  return out;
}

/** One spelling per address (IPv6 as its 16 bytes in hex), for comparing. */
function canonical(address: string): string {
  if (isIP(address) === 4) return address;
  const b = v6Bytes(address);
  const v4 = embeddedV4(b);
  if (v4 !== undefined && b[0] === 0 && b[10] === 0xff) return v4;
  return Buffer.from(b).toString('hex');
}

/**
 * Why `address` (an IP address, no brackets) may not be reached, or undefined when it may:
 * 'loopback', 'private', 'link-local', 'this host's own address'…
 */
export function refusedAddress(address: string): string | undefined {
  const kind = isIP(address.replace(/%.*$/, ''));
  if (kind === 0) return 'not an IP address';
  if (kind === 4) {
    const n = v4Number(address);
    for (const r of V4) if ((n & r.mask) >>> 0 === r.first) return r.why;
  } else {
    const b = v6Bytes(address);
    const v4 = embeddedV4(b);
    if (v4 !== undefined) {
      const why = refusedAddress(v4);
      if (why !== undefined) return `${why}, as ${v4}`;
    }
    for (const r of V6) if (inV6(b, r.first, r.prefix)) return r.why;
  }
  if (ownAddresses().has(canonical(address))) return "this host's own address";
  return undefined;
}

/** The host of a URL's hostname as an address or a name: brackets of IPv6 literals removed. */
function hostOf(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

export class AddressRefused extends Error {
  readonly code = 'EADDRREFUSED';
}

function refusal(host: string, address: string, why: string): AddressRefused {
  const named = host === address ? address : `${host} (${address})`;
  return new AddressRefused(`${named} is ${why}: refused (a webhook added with --allow-private may deliver there)`);
}

/**
 * Throws AddressRefused when the URL's host is, or resolves to, an address that may not be
 * reached. A name that does not resolve passes (it is checked again at every connection).
 */
export async function checkUrlTarget(url: string): Promise<void> {
  const host = hostOf(new URL(url).hostname);
  if (isIP(host) !== 0) {
    const why = refusedAddress(host);
    if (why !== undefined) throw refusal(host, host, why);
    return;
  }
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch {
    return;
  }
  for (const a of addresses) {
    const why = refusedAddress(a.address);
    if (why !== undefined) throw refusal(host, a.address, why);
  }
}

/** Throws AddressRefused when the URL's host is an IP literal that may not be reached (no lookup). */
export function checkUrlLiteral(url: string): void {
  const host = hostOf(new URL(url).hostname);
  if (isIP(host) !== 0) {
    const why = refusedAddress(host);
    if (why !== undefined) throw refusal(host, host, why);
  }
  if (host === 'localhost' || host.endsWith('.localhost')) throw refusal(host, host, 'loopback');
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for net.connect and tls.connect: dns.lookup, then every address judged; an answer
 * with a refused address fails the connection with AddressRefused. The socket connects to the
 * address handed back, the one checked.
 */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    for (const a of addresses) {
      const why = refusedAddress(a.address);
      if (why !== undefined) return callback(refusal(hostname, a.address, why), []);
    }
    if (options.all) callback(null, addresses);
    else if (addresses.length === 0) {
      callback(Object.assign(new Error(`${hostname}: no address`), { code: 'ENOTFOUND' }), []);
    } else callback(null, addresses[0].address, addresses[0].family);
  });
}
