import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'

// A stored secret (a venue's CBMS password) under the app key: AES-256-GCM with a key derived from
// APP_KEY (SHA-256), a fresh 12-byte IV each time. "v1.<iv>.<tag>.<ciphertext>", base64url parts.

const keyOf = (appKey: string) => createHash('sha256').update(`courtside:secret:${appKey}`).digest()

export function sealSecret(appKey: string, plain: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', keyOf(appKey), iv)
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  return ['v1', iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.')
}

/** The secret; throws when it was sealed under another key or changed. */
export function openSecret(appKey: string, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.')
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret')
  const decipher = createDecipheriv('aes-256-gcm', keyOf(appKey), Buffer.from(iv, 'base64url'))
  decipher.setAuthTag(Buffer.from(tag, 'base64url'))
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')
}
