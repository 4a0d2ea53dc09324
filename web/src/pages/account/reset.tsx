import { useState } from 'preact/hooks'
import { createCourtsideClient } from '../../../../src/client/index.ts'
import { api, ok, type Schemas } from '../../api.ts'
import { Field, formValues, NewPasswordFields, Outcome, useAction } from '../../components/account.tsx'
import { t } from '../../i18n/index.ts'
import { navigate } from '../../router.ts'
import { setSession } from '../../session.ts'

const DEVICE = 'Courtside web'

/**
 * "Forgot password" (issue 51): a one-time code by SMS or email signs in (the contract's POST
 * /api/auth/otp/send and /verify), then a new password is set with that session within 15 minutes
 * (POST /api/profile/password/reset). The session is kept only once the password is saved.
 */
export function ResetPasswordPage() {
  const send = useAction()
  const verify = useAction()
  const save = useAction()
  const [sentTo, setSentTo] = useState<{ identifier: string; type: 'sms' | 'email' } | null>(null)
  const [signedIn, setSignedIn] = useState<{ token: string; user: Schemas['User'] } | null>(null)
  return (
    <section class="narrow">
      <h1>{t('reset.title')}</h1>
      <p>{t('reset.intro')}</p>
      {!signedIn && (
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
      )}
      {sentTo && !signedIn && (
        <form
          onSubmit={(e) => {
            const v = formValues(e)
            verify.run(async () => {
              const answer = await ok(
                api().POST('/api/auth/otp/verify', { body: { ...sentTo, otp: v.otp, device_name: DEVICE } }),
              )
              if (!answer.token || !answer.data) return t('auth.codeNoAccount', { to: sentTo.identifier })
              setSignedIn({ token: answer.token, user: answer.data })
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
            {t('reset.verify')}
          </button>
        </form>
      )}
      {signedIn && (
        <form
          onSubmit={(e) => {
            const v = formValues(e)
            save.run(async () => {
              await ok(
                createCourtsideClient(location.origin, signedIn.token).POST('/api/profile/password/reset', {
                  body: { password: v.password, password_confirmation: v.password_confirmation },
                }),
              )
              setSession(signedIn)
              navigate('/account', true)
            })
          }}
        >
          <p role="status">{t('reset.choose')}</p>
          <NewPasswordFields
            label={t('reset.newPassword')}
            hint={t('auth.passwordHint')}
            errors={save.fields('password', 'password_confirmation')}
          />
          <Outcome notice={save.notice} message={save.message} />
          <button type="submit" disabled={save.busy}>
            {t('reset.save')}
          </button>
        </form>
      )}
    </section>
  )
}
