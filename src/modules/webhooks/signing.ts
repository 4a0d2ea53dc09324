import { createHmac, randomBytes } from 'node:crypto'

// Standard Webhooks (https://www.standardwebhooks.com): a secret is "whsec_" + base64 of 24 random
// bytes; the signature of a message is "v1," + base64(HMAC-SHA256(secret bytes, "id.timestamp.body")).

const PREFIX = 'whsec_'

export function newSecret(): string {
  return PREFIX + randomBytes(24).toString('base64')
}

/** The webhook-id of a new message: the same on every delivery attempt of it. */
export function newMessageId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`
}

/** The webhook-signature header value for one attempt. */
export function signature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64')
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')
  return `v1,${mac}`
}
