import { useEffect, useState } from 'preact/hooks'
import { ApiError, api, messageOf, ok, setSession, waitText } from '../api.ts'
import { LanguageSwitch } from '../components/language.tsx'
import { Field, Notice } from '../components/ui.tsx'
import { count, t } from '../i18n/index.ts'
import { ForgotPassword } from './forgot-password.tsx'

/**
 * Sign in with email or phone and password (POST /api/auth/login). Too many sign-ins from one
 * address in a minute (a shift change at one desk) is the service's 429: the wait it asks for is
 * shown and counted down, and "Sign in" waits with it. The language switch is above the form, so a
 * reader of Nepali switches before signing in (the service's errors then come in Nepali too).
 */
export function Login() {
  const [forgot, setForgot] = useState(false)
  return (
    <main id="main" class="login">
      <div class="login-lang">
        <LanguageSwitch />
      </div>
      {forgot ? <ForgotPassword onBack={() => setForgot(false)} /> : <SignInForm onForgot={() => setForgot(true)} />}
    </main>
  )
}

/**
 * The sign-in form (also on an invitation page for an existing account); "Forgot password?" when
 * `onForgot` is given.
 */
export function SignInForm({
  onForgot,
  email: fixedEmail,
  title,
  nested = false,
}: {
  onForgot?: () => void
  email?: string
  title?: string
  /** Inside another page's card: its title is a second-level heading. */
  nested?: boolean
}) {
  const [email, setEmail] = useState(fixedEmail ?? '')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<ApiError | string | null>(null)
  const [busy, setBusy] = useState(false)
  const [wait, setWait] = useState(0)

  // One tick a second while a wait runs (a duration, never the device's time of day).
  useEffect(() => {
    if (wait <= 0) return
    const tick = setTimeout(() => setWait((w) => w - 1), 1000)
    return () => clearTimeout(tick)
  }, [wait])

  async function submit(e: Event) {
    e.preventDefault()
    if (wait > 0) return
    setBusy(true)
    setError(null)
    try {
      const answer = await ok(api().POST('/api/auth/login', { body: { email, password } }))
      setSession({ token: answer.token, user: answer.data })
    } catch (err) {
      setError(err instanceof ApiError ? err : messageOf(err))
      if (err instanceof ApiError && err.retryAfter !== null) setWait(err.retryAfter)
    } finally {
      setBusy(false)
    }
  }

  const fieldError = (name: string) => (error instanceof ApiError ? error.field(name) : undefined)
  const limited = error instanceof ApiError && error.retryAfter !== null
  // The alert says the wait once (a live region that changed every second would talk every second);
  // the button counts it down.
  const formError = limited
    ? wait > 0
      ? t('login.tooMany', { wait: waitText(error.retryAfter ?? wait) })
      : t('login.again')
    : error instanceof ApiError
      ? Object.keys(error.fields).length
        ? null
        : error.message
      : error

  return (
    <form class="card" onSubmit={submit} aria-labelledby="login-title" noValidate>
      {nested ? (
        <h2 id="login-title">{title ?? t('login.title')}</h2>
      ) : (
        <h1 id="login-title">{title ?? t('login.title')}</h1>
      )}
      <p>{t('login.intro')}</p>
      {formError && <Notice kind={limited && wait === 0 ? 'info' : 'error'}>{formError}</Notice>}
      <Field
        label={t('login.identifier')}
        name="email"
        autoComplete="username"
        value={email}
        onInput={(e) => setEmail(e.currentTarget.value)}
        error={fieldError('email')}
        required
      />
      <Field
        label={t('login.password')}
        name="password"
        type="password"
        autoComplete="current-password"
        value={password}
        onInput={(e) => setPassword(e.currentTarget.value)}
        error={fieldError('password')}
        required
      />
      <button type="submit" class="primary" disabled={busy || wait > 0}>
        {busy ? t('login.signingIn') : wait > 0 ? t('login.signInWait', { s: count(wait) }) : t('login.signIn')}
      </button>
      {onForgot && (
        <p>
          <button type="button" class="link" onClick={onForgot}>
            {t('login.forgot')}
          </button>
        </p>
      )}
    </form>
  )
}
