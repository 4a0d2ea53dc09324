import { useState } from 'preact/hooks'
import { createCourtsideClient } from '../../../../src/client/index.ts'
import { ok, type Schemas } from '../../api.ts'
import { formValues, NewPasswordFields, Outcome, useAction } from '../../components/account.tsx'
import { CodeSignIn } from '../../components/code-sign-in.tsx'
import { t } from '../../i18n/index.ts'
import { navigate } from '../../router.ts'
import { setSession } from '../../session.ts'

/**
 * "Forgot password" (issue 51): a one-time code by SMS or email signs in (the contract's POST
 * /api/auth/otp/send and /verify), then a new password is set with that session within 15 minutes
 * (POST /api/profile/password/reset). The session is kept only once the password is saved.
 */
export function ResetPasswordPage() {
  const save = useAction()
  const [signedIn, setSignedIn] = useState<{ token: string; user: Schemas['User'] } | null>(null)
  return (
    <section class="narrow">
      <h1>{t('reset.title')}</h1>
      <p>{t('reset.intro')}</p>
      {!signedIn && <CodeSignIn verifyLabel={t('reset.verify')} onSignedIn={setSignedIn} />}
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
