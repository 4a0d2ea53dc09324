import type { ComponentChildren, InputHTMLAttributes, TargetedEvent } from 'preact'
import { useEffect, useId, useState } from 'preact/hooks'
import { ApiError, messageOf } from '../api.ts'
import { t } from '../i18n/index.ts'
import { Link } from '../router.ts'
import { useSession } from '../session.ts'

// Plumbing of the account pages (web/src/pages/account): data loaded for a page and reloaded after
// a change, a form's busy state and the service's messages, labelled fields (the account's own, and
// a new password), and the sign-in gate.

/** Loads `load()` when `deps` change; `reload()` loads again (after a change on the page). */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []) {
  const [data, setData] = useState<T | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [tick, setTick] = useState(0)
  useEffect(() => {
    let live = true
    setError(null)
    load()
      .then((value) => live && setData(value))
      .catch((err) => live && setError(messageOf(err)))
    return () => {
      live = false
    }
  }, [...deps, tick])
  return { data, error, reload: () => setTick((n) => n + 1), setData }
}

/** A form's action: busy while it runs, then its notice or the service's error (422s per field). */
export function useAction() {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const [notice, setNotice] = useState<string | null>(null)
  async function run(action: () => Promise<unknown>): Promise<boolean> {
    setBusy(true)
    setError(null)
    setNotice(null)
    try {
      const done = await action()
      if (typeof done === 'string' && done) setNotice(done)
      return true
    } catch (err) {
      setError(err)
      return false
    } finally {
      setBusy(false)
    }
  }
  // The fields the form shows its own message under (asked through `field`); a 422 about any other
  // field is said in `message`, so no refusal goes unexplained.
  const shown = new Set<string>()
  /** The service's message for `field` (a 422 names it). */
  const field = (name: string) => {
    shown.add(name)
    return error instanceof ApiError ? error.field(name) : undefined
  }
  /**
   * The service's messages for several fields, by name, for a component of fields (AccountFields):
   * asked here, in the form's own render, so `message` knows they are shown.
   */
  const fields = (...names: string[]) => Object.fromEntries(names.map((name) => [name, field(name)]))
  return {
    busy,
    error,
    notice,
    field,
    fields,
    run,
    setNotice,
    /** The error to show beside the form (read after its fields, as JSX does). */
    get message(): string | null {
      if (!error) return null
      if (!(error instanceof ApiError)) return messageOf(error)
      const others = Object.entries(error.fields)
        .filter(([name]) => !shown.has(name))
        .flatMap(([, messages]) => messages)
      return others.length ? others.join(' ') : error.message
    },
  }
}

/** The values of a submitted form by name. */
export function formValues(e: TargetedEvent<HTMLFormElement>): Record<string, string> {
  e.preventDefault()
  const out: Record<string, string> = {}
  for (const [name, value] of new FormData(e.currentTarget)) out[name] = String(value)
  return out
}

type InputProps = InputHTMLAttributes<HTMLInputElement>

/** A labelled input; the service's message for it is tied to it (aria-describedby, aria-invalid). */
export function Field({ label, error, hint, ...input }: InputProps & { label: string; error?: string; hint?: string }) {
  const id = useId()
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ')
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={described || undefined} {...input} />
      {hint && (
        <p id={`${id}-hint`} class="muted hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} class="field-error">
          {error}
        </p>
      )}
    </div>
  )
}

/**
 * The account's name, email and phone, as signing up asks them (`user` absent) or as the profile
 * edits them (`user` given: filled in, the email shown beside the form rather than asked).
 * `errors` are the service's messages by field (useAction's `fields`).
 */
export function AccountFields({
  user,
  errors,
}: {
  user?: { name: string; phone?: string | null }
  errors: Record<string, string | undefined>
}) {
  return (
    <>
      <Field
        label={t('auth.name')}
        name="name"
        autoComplete="name"
        required
        defaultValue={user?.name}
        error={errors.name}
      />
      {!user && (
        <Field label={t('auth.email')} name="email" type="email" autoComplete="email" required error={errors.email} />
      )}
      <Field
        label={user ? t('auth.phone') : `${t('auth.phone')} ${t('common.optional')}`}
        name="phone"
        type="tel"
        autoComplete="tel"
        defaultValue={user ? (user.phone ?? '') : undefined}
        error={errors.phone}
      />
    </>
  )
}

/** A new password and the same again (sign-up, and the profile's change of password). */
export function NewPasswordFields({
  label,
  hint,
  errors,
}: {
  label: string
  hint?: string
  errors: Record<string, string | undefined>
}) {
  return (
    <>
      <Field
        label={label}
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={8}
        required
        hint={hint}
        error={errors.password}
      />
      <Field
        label={t('auth.passwordConfirm')}
        name="password_confirmation"
        type="password"
        autoComplete="new-password"
        required
        error={errors.password_confirmation}
      />
    </>
  )
}

/** The outcome of an action: its notice (status) or its error (alert). */
export function Outcome({ notice, message }: { notice: string | null; message: string | null }) {
  return (
    <>
      {notice && (
        <p role="status" class="notice">
          {notice}
        </p>
      )}
      {message && <p role="alert">{message}</p>}
    </>
  )
}

/** Loading and error states of a loaded page part. */
export function Loaded<T>({
  state,
  children,
}: {
  state: { data: T | null; error: string | null }
  children: (data: T) => ComponentChildren
}) {
  if (state.error) return <p role="alert">{state.error}</p>
  if (state.data === null) return <p aria-busy="true">{t('app.loading')}</p>
  return <>{children(state.data)}</>
}

/** Its children for a signed-in customer; otherwise a link to sign in (and back here after). */
export function SignedIn({ title, children }: { title: string; children: ComponentChildren }) {
  const session = useSession()
  if (session) return <>{children}</>
  const next = encodeURIComponent(location.pathname + location.search)
  return (
    <section>
      <h1>{title}</h1>
      <p>{t('auth.needSignIn')}</p>
      <p>
        <Link class="button" href={`/signin?next=${next}`}>
          {t('auth.signIn')}
        </Link>{' '}
        <Link class="button secondary" href={`/signup?next=${next}`}>
          {t('auth.signUp')}
        </Link>
      </p>
    </section>
  )
}

/** Where to go after signing in: the `next` path when it is one of ours, else My bookings. */
export function nextPath(query: URLSearchParams): string {
  const next = query.get('next') ?? ''
  return next.startsWith('/') && !next.startsWith('//') ? next : '/bookings'
}
