import { api, ok } from './api.ts'
import { getLang, onLangChange, setLang } from './i18n/index.ts'
import { currentSession, onSessionChange, setSession } from './session.ts'

// The signed-in player's language lives on their account (users.locale, docs/languages.md), so the
// service writes their messages, notifications and errors in it: switching the language while
// signed in stores it (PUT /api/profile {locale}); signing in switches the app to the stored one.
// Guests' requests carry the app's language as Accept-Language (api.ts).

let signedInAs: string | null = currentSession()?.token ?? null

/** Starts keeping the app's language and the account's in step (once, at start). */
export function syncLanguage(): void {
  onSessionChange(() => {
    const session = currentSession()
    const token = session?.token ?? null
    const signedInNow = token !== null && token !== signedInAs
    signedInAs = token
    // Just signed in: the account's language is the player's choice.
    if (signedInNow && session && session.user.locale !== getLang()) setLang(session.user.locale)
  })
  onLangChange((lang) => {
    const session = currentSession()
    if (!session || session.user.locale === lang) return
    ok(api().PUT('/api/profile', { body: { locale: lang } })).then(
      (answer) => {
        const still = currentSession()
        if (still?.token === session.token) setSession({ token: still.token, user: answer.data })
      },
      () => undefined, // Not stored (offline, signed out meanwhile): the next switch tries again.
    )
  })
}
