import { useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../api.ts'
import { t } from '../i18n/index.ts'
import { Field, formValues, Outcome, useAction } from './account.tsx'

const DEVICE = 'Courtside web'

interface Session {
  token: string
  user: Schemas['User']
}

/**
 * Signing in with a one-time code by SMS or email (the contract's POST /api/auth/otp/send, then
 * /verify): the sign-in page's "code" way and the first step of "forgot password".
 */
export function CodeSignIn({
  verifyLabel,
  onSignedIn,
}: {
  verifyLabel: string
  onSignedIn: (session: Session) => void
}) {
  const send = useAction()
  const verify = useAction()
  const [sentTo, setSentTo] = useState<{ identifier: string; type: 'sms' | 'email' } | null>(null)
  return (
    <>
      <form
        onSubmit={(e) => {
          const v = formValues(e)
          const type = v.type === 'email' ? 'email' : 'sms'
          send.run(async () => {
            await ok(api().POST('/api/auth/otp/send', { body: { identifier: v.identifier, type } }))
            setSentTo({ identifier: v.identifier, type })
            return t('auth.codeSent', { to: v.identifier })
          })
        }}
      >
        <Field
          label={t('auth.identifier')}
          name="identifier"
          autoComplete="username"
          required
          error={send.field('identifier')}
        />
        <fieldset class="options">
          <legend>{t('auth.codeBy')}</legend>
          <label>
            <input type="radio" name="type" value="sms" defaultChecked />
            {t('auth.bySms')}
          </label>
          <label>
            <input type="radio" name="type" value="email" />
            {t('auth.byEmail')}
          </label>
        </fieldset>
        <Outcome notice={send.notice} message={send.message} />
        <button type="submit" class={sentTo ? 'secondary' : undefined} disabled={send.busy}>
          {t('auth.sendCode')}
        </button>
      </form>
      {sentTo && (
        <form
          onSubmit={(e) => {
            const v = formValues(e)
            verify.run(async () => {
              const answer = await ok(
                api().POST('/api/auth/otp/verify', { body: { ...sentTo, otp: v.otp, device_name: DEVICE } }),
              )
              if (!answer.token || !answer.data) return t('auth.codeNoAccount', { to: sentTo.identifier })
              onSignedIn({ token: answer.token, user: answer.data })
            })
          }}
        >
          <Field
            label={t('auth.code')}
            name="otp"
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            error={verify.field('otp')}
          />
          <Outcome notice={verify.notice} message={verify.message} />
          <button type="submit" disabled={verify.busy}>
            {verifyLabel}
          </button>
        </form>
      )}
    </>
  )
}
