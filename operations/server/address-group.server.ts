// The unit a per-address budget counts: an IPv4 address as it is, an IPv6 address by its /64. One IPv6 host
// (one subscriber, one cloud machine) is given a whole /64 and may send from any of its 2^64 addresses, so
// a budget per IPv6 address would be a budget per request; a /64 is the smallest block one party is handed.
import { isIPv4, isIPv6 } from 'node:net';

/**
 * `203.0.113.7` → itself; `2001:db8:1:2::5`, `2001:0db8:0001:0002:ffff::1` → `2001:db8:1:2::/64`; an IPv4-mapped
 * IPv6 address (`::ffff:203.0.113.7`, `::ffff:cb00:7107`) → its IPv4 address. Anything else is returned as it is.
 */
export function addressGroup(ip: string): string {
  const address = ip.trim().replace(/%.*$/, ''); // a zone (`fe80::1%eth0`) names an interface, not a host
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return ip;
  const words = ipv6Words(address);
  if (words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff) {
    return [words[6]! >> 8, words[6]! & 0xff, words[7]! >> 8, words[7]! & 0xff].join('.');
  }
  return `${words
    .slice(0, 4)
    .map((w) => w.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit words of a valid IPv6 address (`::` expanded, a dotted IPv4 tail read as two words). */
function ipv6Words(address: string): number[] {
  let text = address.toLowerCase();
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const groups = rest === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((group) => parseInt(group, 16));
}
