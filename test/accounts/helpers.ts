import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import type { App } from '../../src/app.ts'

export interface OutboxEntry {
  channel: string
  to: string
  subject?: string
  body: string
  sent_at: string
}

/** Messages the log driver wrote to OUTBOX_FILE, oldest first. */
export async function outbox(app: App): Promise<OutboxEntry[]> {
  const text = await readFile(app.ctx.config.outboxFile, 'utf8').catch(() => '')
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as OutboxEntry)
}

/** The 6-digit code of the newest OTP message sent to `to`. */
export async function lastOtp(app: App, to: string): Promise<string> {
  const entries = (await outbox(app)).filter((e) => e.to === to && /\b\d{6}\b/.test(e.body))
  assert.ok(entries.length > 0, `no OTP message for ${to}`)
  return /\b(\d{6})\b/.exec(entries[entries.length - 1].body)![1]
}

/** The verification link of the newest verification mail sent to `to`. */
export async function lastVerificationLink(app: App, to: string): Promise<string> {
  const entries = (await outbox(app)).filter((e) => e.to === to && e.body.includes('/api/email/verify/'))
  assert.ok(entries.length > 0, `no verification mail for ${to}`)
  return /(https?:\/\/\S+\/api\/email\/verify\/\S+)/.exec(entries[entries.length - 1].body)![1]
}

/** Asserts a body is the contract's User, field by field. */
export function assertUserShape(user: Record<string, unknown>) {
  assert.deepEqual(Object.keys(user).sort(), [
    'avatar',
    'created_at',
    'email',
    'email_verified',
    'id',
    'is_active',
    'locale',
    'name',
    'notify_email',
    'notify_sms',
    'permissions',
    'phone',
    'phone_verified',
    'roles',
    'wallet_balance',
  ])
  assert.equal(typeof user.id, 'number')
  assert.equal(typeof user.name, 'string')
  assert.equal(typeof user.email, 'string')
  assert.ok(user.phone === null || typeof user.phone === 'string')
  assert.ok(user.avatar === null || typeof user.avatar === 'string')
  assert.match(String(user.wallet_balance), /^\d+\.\d{2}$/)
  assert.equal(typeof user.is_active, 'boolean')
  assert.equal(typeof user.email_verified, 'boolean')
  assert.equal(typeof user.phone_verified, 'boolean')
  assert.equal(typeof user.notify_sms, 'boolean')
  assert.equal(typeof user.notify_email, 'boolean')
  assert.ok(Array.isArray(user.roles))
  assert.ok(Array.isArray(user.permissions))
  assert.match(String(user.created_at), /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
