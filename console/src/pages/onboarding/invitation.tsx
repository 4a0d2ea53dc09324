import { ApiError, api, ok, setSession, useSession } from '../../api.ts'
import { Outcome, useForm, useLoad } from '../../components/forms.tsx'
import { LanguageSwitch } from '../../components/language.tsx'
import { Field, Loading, Notice } from '../../components/ui.tsx'
import { bothDates, digits, getLang, localName, t } from '../../i18n/index.ts'
import { go, href } from '../../router.ts'
import { SignInForm } from '../login.tsx'

// The page a staff invitation's mailed link opens (#/invitations/{token}), with or without a
// session: the venue and role (GET /api/invitations/{token}), then a name and password; accepting
// (POST …/accept) creates the account, signs this browser in and opens the venue's day board. An
// invitee who has an account signs in with it here and accepts (POST /api/me/invitations/{id}/accept,
// issue 51): they become staff only by saying yes. In the console's language (issue 50), with the
// language switch on the page, since an invitee may open it before ever signing in.

/** The invited role as the invitee reads it ("manager" / "व्यवस्थापक"); an unknown one as is. */
export function roleName(role: string): string {
  return role === 'manager' ? t('invite.roleManager') : role === 'staff' ? t('invite.roleStaff') : role
}

/**
 * When an invitation runs out: in English the service's venue-time instant as it is written; in
 * Nepali its AD date with the BS date beside and the time, in Devanagari digits.
 */
export function untilText(instant: string): string {
  if (getLang() === 'en') return instant
  return `${bothDates(instant.slice(0, 10))} ${digits(instant.slice(11, 16))}`
}

/** What to tell the invitee for an answer that is not an invitation to accept. */
function refusal(err: unknown): string {
  if (err instanceof ApiError && err.status === 404) {
    return t('invite.notValid')
  }
  if (err instanceof ApiError && err.status === 410) {
    return t('invite.gone')
  }
  return err instanceof Error ? err.message : t('invite.notLoaded')
}

/** An invitee with an account: sign in as the invited email, then accept (or see who is signed in). */
function ExistingAccount({
  email,
  venueName,
  busy,
  error,
  notice,
  onAccept,
}: {
  email: string
  venueName: string
  busy: boolean
  error: unknown
  notice: string | null
  onAccept: () => void
}) {
  const session = useSession()
  if (!session) {
    return (
      <>
        <p>{t('invite.hasAccount', { email })}</p>
        <SignInForm email={email} title={t('invite.signInToAccept')} nested />
      </>
    )
  }
  if (session.user.email.toLowerCase() !== email.toLowerCase()) {
    return <Notice kind="error">{t('invite.otherAccount', { signedIn: session.user.email, email })}</Notice>
  }
  return (
    <>
      <Outcome error={error} notice={notice} />
      <p>{t('invite.signedInAs', { email, venue: venueName })}</p>
      <button type="button" class="primary" disabled={busy} onClick={onAccept}>
        {busy ? t('invite.accepting') : t('invite.acceptAndJoin', { venue: venueName })}
      </button>
    </>
  )
}

export function InvitationPage({ token }: { token: string }) {
  const invitation = useLoad(
    () =>
      ok(api().GET('/api/invitations/{token}', { params: { path: { token } } })).then(
        (r) => ({ ok: true as const, data: r.data }),
        // 404 and 410 are answers to show, not failures to load.
        (err: unknown) => ({ ok: false as const, error: err }),
      ),
    [token],
  )
  const f = useForm({ name: '', password: '', password_confirmation: '' })

  let body: preact.JSX.Element
  if (invitation.error) body = <Notice kind="error">{invitation.error}</Notice>
  else if (!invitation.data) body = <Loading what={t('invite.loading')} />
  else if (!invitation.data.ok) {
    body = (
      <>
        <Notice kind="error">{refusal(invitation.data.error)}</Notice>
        <p>
          <a href={href('/')}>{t('invite.goSignIn')}</a>
        </p>
      </>
    )
  } else {
    const inv = invitation.data.data
    async function accept(e: Event) {
      e.preventDefault()
      await f.submit(async () => {
        const answer = await ok(
          api().POST('/api/invitations/{token}/accept', {
            params: { path: { token } },
            body: {
              name: f.values.name.trim(),
              password: f.values.password,
              password_confirmation: f.values.password_confirmation,
            },
          }),
        )
        setSession({ token: answer.token, user: answer.data })
        go(`/venues/${inv.venue.id}/board`)
        return undefined
      })
    }
    async function join() {
      await f.submit(async () => {
        await ok(
          api().POST('/api/me/invitations/{invitation}/accept', { params: { path: { invitation: String(inv.id) } } }),
        )
        // The venue list of the session changes with the new role: start the console afresh on the board.
        location.hash = `/venues/${inv.venue.id}/board`
        location.reload()
        return undefined
      })
    }
    const gone = f.error instanceof ApiError && (f.error.status === 404 || f.error.status === 410)
    const emailTaken = f.error instanceof ApiError ? f.error.field('email') : undefined
    body = (
      <>
        <p>
          <strong>{localName(inv.venue)}</strong>
          {t('invite.invites')}
          <strong>{inv.email}</strong>
          {t('invite.toWorkAs')}
          <strong>{roleName(inv.role)}</strong>
          {t('invite.stop')}
        </p>
        {!inv.valid ? (
          <>
            <Notice kind="error">
              {inv.status === 'accepted'
                ? t('invite.alreadyAccepted')
                : t('invite.expired', { venue: localName(inv.venue) })}
            </Notice>
            <p>
              <a href={href('/')}>{t('invite.goSignIn')}</a>
            </p>
          </>
        ) : inv.has_account ? (
          <ExistingAccount
            email={inv.email}
            venueName={localName(inv.venue)}
            busy={f.busy}
            error={f.error}
            notice={f.notice}
            onAccept={join}
          />
        ) : (
          <form onSubmit={accept} noValidate>
            {gone ? (
              <Notice kind="error">{refusal(f.error)}</Notice>
            ) : emailTaken ? (
              <Notice kind="error">{t('invite.emailTaken', { error: emailTaken })}</Notice>
            ) : (
              <Outcome error={f.error} notice={f.notice} />
            )}
            <p>{t('invite.choose', { until: untilText(inv.expires_at) })}</p>
            <Field label={t('invite.yourName')} autoComplete="name" required {...f.bind('name')} />
            <Field label={t('invite.email')} type="email" value={inv.email} disabled autoComplete="username" />
            <Field
              label={t('login.password')}
              type="password"
              autoComplete="new-password"
              required
              hint={t('forgot.passwordHint')}
              {...f.bind('password')}
            />
            <Field
              label={t('invite.confirmPassword')}
              type="password"
              autoComplete="new-password"
              required
              {...f.bind('password_confirmation')}
            />
            <button type="submit" class="primary" disabled={f.busy}>
              {f.busy ? t('invite.accepting') : t('invite.acceptAndSignIn')}
            </button>
          </form>
        )}
      </>
    )
  }
  return (
    <main id="main" class="invitation">
      <div class="login-lang">
        <LanguageSwitch />
      </div>
      <section class="card" aria-labelledby="invitation-title">
        <h1 id="invitation-title">{t('invite.title')}</h1>
        {body}
      </section>
    </main>
  )
}
