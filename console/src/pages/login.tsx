import { useState } from 'preact/hooks'
import { ApiError, api, messageOf, ok, setSession } from '../api.ts'
import { Field, Notice } from '../components/ui.tsx'

/** Sign in with email or phone and password (POST /api/auth/login). */
export function Login() {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<ApiError | string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(e: Event) {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const answer = await ok(api().POST('/api/auth/login', { body: { email, password } }))
      setSession({ token: answer.token, user: answer.data })
    } catch (err) {
      setError(err instanceof ApiError ? err : messageOf(err))
    } finally {
      setBusy(false)
    }
  }

  const fieldError = (name: string) => (error instanceof ApiError ? error.field(name) : undefined)
  const formError = error instanceof ApiError ? (Object.keys(error.fields).length ? null : error.message) : error

  return (
    <main id="main" class="login">
      <form class="card" onSubmit={submit} aria-labelledby="login-title" noValidate>
        <h1 id="login-title">Courtside desk</h1>
        <p>Sign in with the email or phone number of your venue account.</p>
        {formError && <Notice kind="error">{formError}</Notice>}
        <Field
          label="Email or phone"
          name="email"
          autoComplete="username"
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
          error={fieldError('email')}
          required
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
          error={fieldError('password')}
          required
        />
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  )
}
