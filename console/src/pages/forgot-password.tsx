import { useState } from 'preact/hooks'
import { api, ok, setSession, type User } from '../api.ts'
import { Outcome, useForm } from '../components/forms.tsx'
import { Field } from '../components/ui.tsx'
import { t } from '../i18n/index.ts'

// "Forgot password" (issue 51): a one-time code by email or SMS (the contract's POST
// /api/auth/otp/send and /verify) signs in; then a new password is set with that session
// (POST /api/profile/password/reset, within 15 minutes). Only then does the console keep the session.

type Step =
  | { at: 'ask' }
  | { at: 'code'; identifier: string; type: 'sms' | 'email' }
  | { at: 'new'; token: string; user: User }

/** "sita@example.com" → email; anything else (a phone number) → SMS. */
const channelOf = (identifier: string): 'sms' | 'email' => (identifier.includes('@') ? 'email' : 'sms')

export function ForgotPassword({ onBack }: { onBack: () => void }) {
  const [step, setStep] = useState<Step>({ at: 'ask' })
  const f = useForm({ identifier: '', otp: '', password: '', password_confirmation: '' })

  async function send(e: Event) {
    e.preventDefault()
    const identifier = f.values.identifier.trim()
    const type = channelOf(identifier)
    await f.submit(async () => {
      await ok(api().POST('/api/auth/otp/send', { body: { identifier, type } }))
      setStep({ at: 'code', identifier, type })
      return type === 'email' ? t('forgot.sentEmail', { to: identifier }) : t('forgot.sentSms', { to: identifier })
    })
  }

  async function verify(e: Event) {
    e.preventDefault()
    if (step.at !== 'code') return
    await f.submit(async () => {
      const answer = await ok(
        api().POST('/api/auth/otp/verify', {
          body: { identifier: step.identifier, type: step.type, otp: f.values.otp.trim() },
        }),
      )
      if (!('token' in answer) || !answer.token || !answer.data) {
        return t('forgot.noAccount')
      }
      setStep({ at: 'new', token: answer.token, user: answer.data })
      return t('forgot.accepted')
    })
  }

  async function save(e: Event) {
    e.preventDefault()
    if (step.at !== 'new') return
    await f.submit(async () => {
      await ok(
        api(step.token).POST('/api/profile/password/reset', {
          body: { password: f.values.password, password_confirmation: f.values.password_confirmation },
        }),
      )
      setSession({ token: step.token, user: step.user })
      return undefined
    })
  }

  return (
    <div class="card">
      <h1 id="login-title">{t('forgot.title')}</h1>
      <Outcome error={f.error} notice={f.notice} />
      {step.at === 'ask' && (
        <form onSubmit={send} noValidate>
          <p>{t('forgot.intro')}</p>
          <Field label={t('login.identifier')} autoComplete="username" required {...f.bind('identifier')} />
          <button type="submit" class="primary" disabled={f.busy}>
            {t('forgot.send')}
          </button>
        </form>
      )}
      {step.at === 'code' && (
        <form onSubmit={verify} noValidate>
          <Field
            label={t('forgot.code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            {...f.bind('otp')}
          />
          <button type="submit" class="primary" disabled={f.busy}>
            {t('forgot.signInWithCode')}
          </button>
        </form>
      )}
      {step.at === 'new' && (
        <form onSubmit={save} noValidate>
          <Field
            label={t('forgot.newPassword')}
            type="password"
            autoComplete="new-password"
            hint={t('forgot.passwordHint')}
            required
            {...f.bind('password')}
          />
          <Field
            label={t('forgot.confirmPassword')}
            type="password"
            autoComplete="new-password"
            required
            {...f.bind('password_confirmation')}
          />
          <button type="submit" class="primary" disabled={f.busy}>
            {t('forgot.save')}
          </button>
        </form>
      )}
      <p>
        <button type="button" class="link" onClick={onBack}>
          {t('forgot.back')}
        </button>
      </p>
    </div>
  )
}
