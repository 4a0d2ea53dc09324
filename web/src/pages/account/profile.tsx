import { api, ok } from '../../api.ts'
import {
  AccountFields,
  Field,
  formValues,
  Loaded,
  NewPasswordFields,
  Outcome,
  SignedIn,
  useAction,
  useLoad,
} from '../../components/account.tsx'
import { formatDate, formatDigits, t } from '../../i18n/index.ts'
import { forgetSavedData } from '../../offline.ts'
import { Link, navigate } from '../../router.ts'
import { currentSession, setSession, useSession } from '../../session.ts'

/** The account: details, email verification, password, signed-in devices, sign out. */
export function ProfilePage() {
  return (
    <SignedIn title={t('profile.title')}>
      <Profile />
    </SignedIn>
  )
}

/** Signs out here: revokes this device's token, forgets the session and the offline copies. */
export async function signOut() {
  if (currentSession())
    await api()
      .POST('/api/auth/logout')
      .catch(() => undefined)
  setSession(null)
  await forgetSavedData()
}

function Profile() {
  const session = useSession()
  const details = useAction()
  const password = useAction()
  const devices = useLoad(() => ok(api().GET('/api/auth/devices')))
  const revoke = useAction()
  const verify = useAction()
  const messages = useAction()
  if (!session) return null
  const user = session.user
  return (
    <section class="narrow">
      <h1>{t('profile.title')}</h1>
      <nav aria-label={t('nav.account')} class="links">
        <Link href="/bookings">{t('nav.bookings')}</Link>
        <Link href="/wallet">{t('nav.wallet')}</Link>
        <Link href="/notifications">{t('nav.notifications')}</Link>
        <Link href="/tournaments">{t('nav.tournaments')}</Link>
      </nav>
      <h2>{t('profile.details')}</h2>
      <form
        onSubmit={(e) => {
          const v = formValues(e)
          details.run(async () => {
            const answer = await ok(api().PUT('/api/profile', { body: { name: v.name, phone: v.phone || null } }))
            setSession({ token: session.token, user: answer.data })
            return t('common.saved')
          })
        }}
      >
        <AccountFields user={user} errors={details.fields('name', 'phone')} />
        <p>
          {t('auth.email')}: {user.email}{' '}
          {user.email_verified ? <span class="status">{t('profile.emailVerified')}</span> : null}
        </p>
        <Outcome notice={details.notice} message={details.message} />
        <button type="submit" disabled={details.busy}>
          {t('common.save')}
        </button>
      </form>
      {!user.email_verified && (
        <p>
          {t('profile.emailUnverified')}{' '}
          <button
            type="button"
            class="secondary"
            disabled={verify.busy}
            onClick={() =>
              verify.run(async () => {
                await ok(api().POST('/api/email/verify/resend'))
                return t('profile.resent')
              })
            }
          >
            {t('profile.resend')}
          </button>
          <Outcome notice={verify.notice} message={verify.message} />
        </p>
      )}
      <h2>{t('profile.messages')}</h2>
      <p class="muted">{t('profile.messagesHint')}</p>
      {(['notify_sms', 'notify_email'] as const).map((channel) => (
        <p key={channel}>
          <label>
            <input
              type="checkbox"
              name={channel}
              defaultChecked={user[channel]}
              disabled={messages.busy}
              onChange={(e) => {
                const on = e.currentTarget.checked
                messages.run(async () => {
                  const answer = await ok(api().PUT('/api/profile', { body: { [channel]: on } }))
                  setSession({ token: session.token, user: answer.data })
                  return t('common.saved')
                })
              }}
            />{' '}
            {t(channel === 'notify_sms' ? 'profile.notifySms' : 'profile.notifyEmail')}
          </label>
        </p>
      ))}
      <Outcome notice={messages.notice} message={messages.message} />
      <InvoiceDetails />
      <h2>{t('profile.passwordTitle')}</h2>
      <form
        onSubmit={(e) => {
          const v = formValues(e)
          const form = e.currentTarget
          password.run(async () => {
            await ok(
              api().POST('/api/profile/password', {
                body: {
                  current_password: v.current_password,
                  password: v.password,
                  password_confirmation: v.password_confirmation,
                },
              }),
            )
            form.reset()
            return t('profile.passwordChanged')
          })
        }}
      >
        <Field
          label={t('profile.currentPassword')}
          name="current_password"
          type="password"
          autoComplete="current-password"
          required
          error={password.field('current_password')}
        />
        <NewPasswordFields
          label={t('profile.newPassword')}
          errors={password.fields('password', 'password_confirmation')}
        />
        <Outcome notice={password.notice} message={password.message} />
        <button type="submit" disabled={password.busy}>
          {t('profile.passwordTitle')}
        </button>
      </form>
      <h2>{t('profile.devices')}</h2>
      <Loaded state={devices}>
        {(list) => (
          <ul class="rows">
            {list.map((d) => (
              <li key={d.id}>
                <span>
                  {d.name}
                  <br />
                  <span class="muted">
                    {t('profile.lastUsed', {
                      when: `${formatDate(d.last_used_at.slice(0, 10))} ${formatDigits(d.last_used_at.slice(11, 16))}`,
                    })}
                  </span>
                </span>
                <button
                  type="button"
                  class="secondary"
                  disabled={revoke.busy}
                  onClick={() =>
                    revoke.run(async () => {
                      await ok(
                        api().DELETE('/api/auth/devices/{tokenId}', { params: { path: { tokenId: String(d.id) } } }),
                      )
                      devices.reload()
                    })
                  }
                >
                  {t('profile.revoke')}
                  <span class="sr-only"> ({d.name})</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </Loaded>
      <Outcome notice={revoke.notice} message={revoke.message} />
      <p>
        <button
          type="button"
          class="danger"
          onClick={async () => {
            await signOut()
            navigate('/', true)
          }}
        >
          {t('auth.signOut')}
        </button>
      </p>
    </section>
  )
}

/**
 * The buyer's PAN and address printed on the customer's invoices issued from now on
 * (GET/PUT /api/profile/invoice-details; docs/payments.md, "Receipts and IRD"). Empty fields clear
 * them; the service's answer to a bad PAN or a too long address is shown next to its field.
 */
function InvoiceDetails() {
  const details = useLoad(() => ok(api().GET('/api/profile/invoice-details')).then((r) => r.data))
  const save = useAction()
  return (
    <>
      <h2>{t('profile.invoice')}</h2>
      <p class="muted">{t('profile.invoiceHint')}</p>
      <Loaded state={details}>
        {(d) => (
          <form
            noValidate
            onSubmit={(e) => {
              const v = formValues(e)
              save.run(async () => {
                await ok(
                  api().PUT('/api/profile/invoice-details', {
                    body: {
                      buyer_pan: v.buyer_pan.replace(/\s+/g, '') || null,
                      buyer_address: v.buyer_address.trim() || null,
                    },
                  }),
                )
                return t('common.saved')
              })
            }}
          >
            <Field
              label={t('profile.buyerPan')}
              hint={t('profile.buyerPanHint')}
              name="buyer_pan"
              inputMode="numeric"
              autoComplete="off"
              defaultValue={d.buyer_pan ?? ''}
              error={save.field('buyer_pan')}
            />
            <Field
              label={t('profile.buyerAddress')}
              name="buyer_address"
              autoComplete="street-address"
              defaultValue={d.buyer_address ?? ''}
              error={save.field('buyer_address')}
            />
            <Outcome notice={save.notice} message={save.message} />
            <button type="submit" disabled={save.busy}>
              {t('profile.saveInvoice')}
            </button>
          </form>
        )}
      </Loaded>
    </>
  )
}
