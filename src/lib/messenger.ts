import { appendFile, mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Config } from '../config.ts'

// Mail, SMS and push leave the service through these drivers. The `log` driver (the default; in
// production only with OUTBOX_LOG_IN_PRODUCTION=true, src/config.ts) appends one JSON line per message
// to OUTBOX_FILE: {channel, to, subject?, body, data?, sent_at}.

export interface MailMessage {
  to: string
  subject: string
  body: string
}
export interface SmsMessage {
  to: string
  body: string
}
export interface PushMessage {
  token: string
  title: string
  body: string
  data?: Record<string, string>
}

export interface Messenger {
  mail(msg: MailMessage): Promise<void>
  sms(msg: SmsMessage): Promise<void>
  push(msg: PushMessage): Promise<void>
}

export async function appendOutbox(file: string, entry: Record<string, unknown>) {
  await mkdir(dirname(file), { recursive: true })
  await appendFile(file, `${JSON.stringify({ ...entry, sent_at: new Date().toISOString() })}\n`)
}

export function createMessenger(config: Config): Messenger {
  const log = (entry: Record<string, unknown>) => appendOutbox(config.outboxFile, entry)
  let mailer: ((m: MailMessage) => Promise<void>) | undefined
  let pusher: ((m: PushMessage) => Promise<void>) | undefined
  return {
    async mail(msg) {
      if (config.mail.driver === 'log')
        return log({ channel: 'mail', to: msg.to, subject: msg.subject, body: msg.body })
      mailer ??= await smtpMailer(config)
      return mailer(msg)
    },
    async sms(msg) {
      if (config.sms.driver === 'log') return log({ channel: 'sms', to: msg.to, body: msg.body })
      return httpSms(config, msg)
    },
    async push(msg) {
      if (config.push.driver === 'log') {
        return log({ channel: 'push', to: msg.token, subject: msg.title, body: msg.body, data: msg.data })
      }
      pusher ??= await fcmPusher(config)
      return pusher(msg)
    },
  }
}

async function smtpMailer(config: Config) {
  if (!config.mail.smtpUrl) throw new Error('MAIL_DRIVER=smtp needs SMTP_URL')
  const nodemailer = await import('nodemailer')
  const transport = nodemailer.createTransport(config.mail.smtpUrl)
  return async (msg: MailMessage) => {
    await transport.sendMail({ from: config.mail.from, to: msg.to, subject: msg.subject, text: msg.body })
  }
}

async function httpSms(config: Config, msg: SmsMessage) {
  if (!config.sms.httpUrl) throw new Error('SMS_DRIVER=http needs SMS_HTTP_URL')
  const res = await fetch(config.sms.httpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(config.sms.httpToken ? { authorization: `Bearer ${config.sms.httpToken}` } : {}),
    },
    body: JSON.stringify({ to: msg.to, text: msg.body }),
    signal: AbortSignal.timeout(10_000),
  })
  if (!res.ok) throw new Error(`SMS provider answered ${res.status}`)
}

async function fcmPusher(config: Config) {
  if (!config.push.fcmServiceAccount) throw new Error('PUSH_DRIVER=fcm needs FCM_SERVICE_ACCOUNT')
  const admin = await import('firebase-admin')
  const app = admin.default.initializeApp(
    { credential: admin.default.credential.cert(JSON.parse(config.push.fcmServiceAccount)) },
    `courtside-${Date.now()}`,
  )
  const messaging = app.messaging()
  return async (msg: PushMessage) => {
    await messaging.send({ token: msg.token, notification: { title: msg.title, body: msg.body }, data: msg.data })
  }
}
