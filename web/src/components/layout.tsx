import type { ComponentChildren } from 'preact'
import { type Lang, setLang, t, useLang } from '../i18n/index.ts'
import { Link } from '../router.ts'
import { useSession } from '../session.ts'

/** The app's frame: a skip link, the header (home, language, account) and the main region. */
export function Layout({ children }: { children: ComponentChildren }) {
  const lang = useLang()
  const session = useSession()
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
          {session ? (
            <Link href="/account">{session.user.name}</Link>
          ) : (
            <Link href={`/signin?next=${encodeURIComponent(location.pathname + location.search)}`}>
              {t('nav.signIn')}
            </Link>
          )}
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  )
}
