import { createHmac, timingSafeEqual } from 'node:crypto'

export function hmacBase64(algorithm: 'sha256' | 'sha512', secret: string, message: string): string {
  return createHmac(algorithm, secret).update(message).digest('base64')
}

export function hmacHex(algorithm: 'sha256' | 'sha512', secret: string, message: string): string {
  return createHmac(algorithm, secret).update(message).digest('hex')
}

/** Constant-time comparison of two signature strings. */
export function sameSignature(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}
