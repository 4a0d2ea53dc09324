import { useState } from 'preact/hooks'
import { api, ok } from '../../api.ts'
import { Field, formValues, nextPath, Outcome, useAction } from '../../components/account.tsx'
import { CodeSignIn } from '../../components/code-sign-in.tsx'
import { t } from '../../i18n/index.ts'
import { Link, navigate } from '../../router.ts'
import { setSession } from '../../session.ts'

const DEVICE = 'Courtside web'

/** Sign in with a password, or with a one-time code sent by SMS or email (POST /api/auth/otp/*). */
export function SignInPage({ query }: { query: URLSearchParams }) {
  const [method, setMethod] = useState<'password' | 'code'>('password')
  const next = nextPath(query)
  return (
    <section class="narrow">
      <h1>{t('auth.signInTitle')}</h1>
      <fieldset class="options">
        <legend>{t('auth.method')}</legend>
        <label>
          <input type="radio" name="method" checked={method === 'password'} onChange={() => setMethod('password')} />
          {t('auth.withPassword')}
        </label>
        <label>
          <input type="radio" name="method" checked={method === 'code'} onChange={() => setMethod('code')} />
          {t('auth.withCode')}
        </label>
      </fieldset>
      {method === 'password' ? <PasswordForm next={next} /> : <CodeForm next={next} />}
      <p>
        <Link href="/reset-password">{t('reset.link')}</Link>
      </p>
      <p>
        {t('auth.noAccount')} <Link href={`/signup?next=${encodeURIComponent(next)}`}>{t('auth.signUp')}</Link>
      </p>
    </section>
  )
}

function PasswordForm({ next }: { next: string }) {
  const action = useAction()
  return (
    <form
      onSubmit={(e) => {
        const v = formValues(e)
        action.run(async () => {
          const answer = await ok(
            api().POST('/api/auth/login', { body: { email: v.email, password: v.password, device_name: DEVICE } }),
          )
          setSession({ token: answer.token, user: answer.data })
          navigate(next, true)
        })
      }}
    >
      <Field label={t('auth.identifier')} name="email" autoComplete="username" required error={action.field('email')} />
      <Field
        label={t('auth.password')}
        name="password"
        type="password"
        autoComplete="current-password"
        required
        error={action.field('password')}
      />
      <Outcome notice={action.notice} message={action.message} />
      <button type="submit" disabled={action.busy}>
        {t('auth.signIn')}
      </button>
    </form>
  )
}

function CodeForm({ next }: { next: string }) {
  return (
    <CodeSignIn
      verifyLabel={t('auth.verify')}
      onSignedIn={(session) => {
        setSession(session)
        navigate(next, true)
      }}
    />
  )
}
