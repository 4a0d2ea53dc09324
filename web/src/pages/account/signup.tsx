import { api, ok } from '../../api.ts'
import { Field, formValues, nextPath, Outcome, useAction } from '../../components/account.tsx'
import { t } from '../../i18n/index.ts'
import { Link, navigate } from '../../router.ts'
import { setSession } from '../../session.ts'

/** A new customer account (POST /api/auth/register), signed in at once. */
export function SignUpPage({ query }: { query: URLSearchParams }) {
  const action = useAction()
  const next = nextPath(query)
  return (
    <section class="narrow">
      <h1>{t('auth.signUpTitle')}</h1>
      <form
        onSubmit={(e) => {
          const v = formValues(e)
          action.run(async () => {
            const answer = await ok(
              api().POST('/api/auth/register', {
                body: {
                  name: v.name,
                  email: v.email,
                  phone: v.phone || null,
                  password: v.password,
                  password_confirmation: v.password_confirmation,
                  device_name: 'Courtside web',
                },
              }),
            )
            setSession({ token: answer.token, user: answer.data })
            navigate(next, true)
          })
        }}
      >
        <Field label={t('auth.name')} name="name" autoComplete="name" required error={action.field('name')} />
        <Field
          label={t('auth.email')}
          name="email"
          type="email"
          autoComplete="email"
          required
          error={action.field('email')}
        />
        <Field
          label={`${t('auth.phone')} ${t('common.optional')}`}
          name="phone"
          type="tel"
          autoComplete="tel"
          error={action.field('phone')}
        />
        <Field
          label={t('auth.password')}
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={8}
          required
          hint={t('auth.passwordHint')}
          error={action.field('password')}
        />
        <Field
          label={t('auth.passwordConfirm')}
          name="password_confirmation"
          type="password"
          autoComplete="new-password"
          required
          error={action.field('password_confirmation')}
        />
        <Outcome notice={action.notice} message={action.message} />
        <button type="submit" disabled={action.busy}>
          {t('auth.signUp')}
        </button>
      </form>
      <p>
        {t('auth.haveAccount')} <Link href={`/signin?next=${encodeURIComponent(next)}`}>{t('auth.signIn')}</Link>
      </p>
    </section>
  )
}
