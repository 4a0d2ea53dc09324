import { lookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'

// Server-side request forgery: a webhook URL is chosen by a venue's owner, so in production a
// delivery never reaches the service's own network. The host is resolved when the request is sent
// (never trusted from creation time), every address it resolves to must be public, and the request
// connects to the address that was checked, so a second resolution (DNS rebinding) cannot swap it.

const blocked = new BlockList()
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, bits, 'ipv4')
}
for (const [net, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, bits, 'ipv6')
}

/** The 16 bytes of an IPv6 address (the caller checked it with isIP), dotted-quad tail included. */
function ipv6Bytes(address: string): number[] {
  let text = address.split('%')[0].toLowerCase()
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (tail) {
    const [a, b, c, d] = tail[1].split('.').map(Number)
    text = `${text.slice(0, -tail[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, rest] = text.split('::')
  const groups = (s: string | undefined) => (s ? s.split(':').filter(Boolean) : [])
  const left = groups(head)
  const right = groups(rest)
  const middle = rest === undefined ? [] : Array(8 - left.length - right.length).fill('0')
  const words = [...left, ...middle, ...right].map((g) => Number.parseInt(g, 16))
  return words.flatMap((w) => [w >> 8, w & 0xff])
}

/**
 * The IPv4 address an IPv6 address carries, if it is one of the forms that reach IPv4 hosts:
 * IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d, which includes :: and ::1), NAT64
 * (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::).
 */
function embeddedIPv4(address: string): string | null {
  const b = ipv6Bytes(address)
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0)
  const quad = (at: number) => b.slice(at, at + 4).join('.')
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return quad(12)
  if (zero(0, 12)) return quad(12)
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(4, 12)) return quad(12)
  if (b[0] === 0x20 && b[1] === 0x02) return quad(2)
  return null
}

/** Whether a delivery must not connect to `address`: not public (loopback, private, link-local…) or not an IP. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 4) return blocked.check(address, 'ipv4')
  if (family !== 6) return true
  const v4 = embeddedIPv4(address)
  if (v4 !== null) return blocked.check(v4, 'ipv4')
  return blocked.check(address.split('%')[0], 'ipv6')
}

export class RefusedAddress extends Error {}

export interface Target {
  address: string
  family: 4 | 6
}

/** The host of a URL without the brackets of an IPv6 literal. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1')
}

/**
 * Resolves the URL's host now and returns the address to connect to. Unless `allowPrivate`, every
 * address the name resolves to must be public (one private answer among public ones is refused:
 * a resolver could hand out either).
 */
export async function vetTarget(url: URL, allowPrivate: boolean): Promise<Target> {
  const host = hostOf(url)
  const literal = isIP(host)
  const all: Target[] = literal
    ? [{ address: host, family: literal as 4 | 6 }]
    : (await lookup(host, { all: true, verbatim: true })).map((a) => ({
        address: a.address,
        family: a.family as 4 | 6,
      }))
  if (all.length === 0) throw new RefusedAddress(`${host} has no address`)
  if (!allowPrivate) {
    const bad = all.find((a) => isForbiddenAddress(a.address))
    if (bad && literal) throw new RefusedAddress(`${host} is not a public address`)
    if (bad) throw new RefusedAddress(`${host} resolves to ${bad.address}, which is not a public address`)
  }
  return all[0]
}

/**
 * Why a webhook URL is refused when it is registered, or null: http or https only, no user name or
 * password, a host; an IP literal must be public unless private addresses are allowed. (A name is
 * checked when each delivery is sent, on what it resolves to then.)
 */
export function urlProblem(raw: string, allowPrivate: boolean): string | null {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'The url must be an absolute http or https URL.'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'The url must be an absolute http or https URL.'
  if (url.username || url.password) return 'The url must not contain a user name or password.'
  if (!url.hostname) return 'The url must name a host.'
  const host = hostOf(url)
  if (!allowPrivate && (isIP(host) ? isForbiddenAddress(host) : host === 'localhost' || host.endsWith('.localhost'))) {
    return 'The url must point to a public address.'
  }
  return null
}
