import { ApiError, api, ok, setSession, useSession } from '../../api.ts'
import { Outcome, useForm, useLoad } from '../../components/forms.tsx'
import { Field, Loading, Notice } from '../../components/ui.tsx'
import { go, href } from '../../router.ts'
import { SignInForm } from '../login.tsx'

// The page a staff invitation's mailed link opens (#/invitations/{token}), with or without a
// session: the venue and role (GET /api/invitations/{token}), then a name and password; accepting
// (POST …/accept) creates the account, signs this browser in and opens the venue's day board. An
// invitee who has an account signs in with it here and accepts (POST /api/me/invitations/{id}/accept,
// issue 51): they become staff only by saying yes.

const ROLE: Record<string, string> = { manager: 'manager', staff: 'staff' }

/** What to tell the invitee for an answer that is not an invitation to accept. */
function refusal(err: unknown): string {
  if (err instanceof ApiError && err.status === 404) {
    return 'This invitation link is not valid. Check that the whole link was copied from the email, or ask the venue for a new invitation.'
  }
  if (err instanceof ApiError && err.status === 410) {
    return 'This invitation can no longer be accepted: it has been used or it has expired. Sign in if you already accepted it, or ask the venue for a new invitation.'
  }
  return err instanceof Error ? err.message : 'The invitation could not be loaded.'
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
        <p>{email} already has a Courtside account. Sign in with it to accept.</p>
        <SignInForm email={email} title="Sign in to accept" nested />
      </>
    )
  }
  if (session.user.email.toLowerCase() !== email.toLowerCase()) {
    return (
      <Notice kind="error">
        You are signed in as {session.user.email}, but this invitation is for {email}. Sign out and sign in as {email}{' '}
        to accept it.
      </Notice>
    )
  }
  return (
    <>
      <Outcome error={error} notice={notice} />
      <p>
        You are signed in as {email}. Accept to start working at {venueName}; until then nothing changes for your
        account.
      </p>
      <button type="button" class="primary" disabled={busy} onClick={onAccept}>
        {busy ? 'Accepting…' : `Accept and join ${venueName}`}
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
  else if (!invitation.data) body = <Loading what="Loading the invitation" />
  else if (!invitation.data.ok) {
    body = (
      <>
        <Notice kind="error">{refusal(invitation.data.error)}</Notice>
        <p>
          <a href={href('/')}>Go to sign in</a>
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
          <strong>{inv.venue.name}</strong> invites <strong>{inv.email}</strong> to work there as{' '}
          <strong>{ROLE[inv.role] ?? inv.role}</strong>.
        </p>
        {!inv.valid ? (
          <>
            <Notice kind="error">
              {inv.status === 'accepted'
                ? 'This invitation has already been accepted. Sign in with the account it created.'
                : `This invitation has expired. Ask ${inv.venue.name} to invite you again.`}
            </Notice>
            <p>
              <a href={href('/')}>Go to sign in</a>
            </p>
          </>
        ) : inv.has_account ? (
          <ExistingAccount
            email={inv.email}
            venueName={inv.venue.name}
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
              <Notice kind="error">{emailTaken} Reload this page to sign in and accept.</Notice>
            ) : (
              <Outcome error={f.error} notice={f.notice} />
            )}
            <p>
              Choose your name and a password to create your account. The invitation is valid until {inv.expires_at}.
            </p>
            <Field label="Your name" autoComplete="name" required {...f.bind('name')} />
            <Field label="Email" type="email" value={inv.email} disabled autoComplete="username" />
            <Field
              label="Password"
              type="password"
              autoComplete="new-password"
              required
              hint="At least 8 characters."
              {...f.bind('password')}
            />
            <Field
              label="Confirm password"
              type="password"
              autoComplete="new-password"
              required
              {...f.bind('password_confirmation')}
            />
            <button type="submit" class="primary" disabled={f.busy}>
              {f.busy ? 'Accepting…' : 'Accept and sign in'}
            </button>
          </form>
        )}
      </>
    )
  }
  return (
    <main id="main" class="invitation">
      <section class="card" aria-labelledby="invitation-title">
        <h1 id="invitation-title">Join a venue on Courtside</h1>
        {body}
      </section>
    </main>
  )
}
