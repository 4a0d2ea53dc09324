import type { ComponentChildren } from 'preact'
import { type Lang, setLang, t, useLang } from '../i18n/index.ts'
import { Link, useRoute } from '../router.ts'
import { useSession } from '../session.ts'

/** The sections a customer moves between; the account-only ones once signed in. */
const SECTIONS = [
  { href: '/', key: 'nav.find', signedIn: false },
  { href: '/bookings', key: 'nav.bookings', signedIn: true },
  { href: '/wallet', key: 'nav.wallet', signedIn: true },
  { href: '/matches', key: 'nav.matches', signedIn: false },
  { href: '/tournaments', key: 'nav.tournaments', signedIn: false },
  { href: '/notifications', key: 'nav.notifications', signedIn: true },
]

/** The app's frame: a skip link, the header (home, language, account), the sections and the main region. */
export function Layout({ children }: { children: ComponentChildren }) {
  const lang = useLang()
  const session = useSession()
  const route = useRoute()
  const here = `/${route.path[0] ?? ''}`
  return (
    <>
      <a class="skip" href="#main">
        {t('app.skip')}
      </a>
      <header class="top">
        <Link href="/" class="brand">
          {t('app.name')}
        </Link>
        <nav aria-label={t('nav.main')} class="top-nav">
          <label class="lang">
            <span class="sr-only">{t('lang.label')}</span>
            <select value={lang} onChange={(e) => setLang((e.currentTarget as HTMLSelectElement).value as Lang)}>
              <option value="en">English</option>
              <option value="ne">नेपाली</option>
            </select>
          </label>
          {/* Venue owners set up in the staff console's onboarding (issue 51). */}
          <a href="/console/#/new-venue">{t('listVenue.link')}</a>
          {session ? (
            <Link href="/account">{session.user.name}</Link>
          ) : (
            <Link href={`/signin?next=${encodeURIComponent(location.pathname + location.search)}`}>
              {t('nav.signIn')}
            </Link>
          )}
        </nav>
      </header>
      <nav aria-label={t('nav.sections')} class="sections">
        {SECTIONS.filter((s) => session || !s.signedIn).map((s) => (
          <Link key={s.href} href={s.href} aria-current={here === s.href ? 'page' : undefined}>
            {t(s.key)}
          </Link>
        ))}
      </nav>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  )
}
