import { api, ok } from '../../api.ts'
import {
  AccountFields,
  formValues,
  NewPasswordFields,
  nextPath,
  Outcome,
  useAction,
} from '../../components/account.tsx'
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
        <AccountFields errors={action.fields('name', 'email', 'phone')} />
        <NewPasswordFields
          label={t('auth.password')}
          hint={t('auth.passwordHint')}
          errors={action.fields('password', 'password_confirmation')}
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
