import type { Lang } from './format.ts'
import type { Language } from './language.ts'
import type { SessionStore } from './session.ts'

// A signed-in person's language lives on their account (users.locale, docs/languages.md), so the
// service writes their messages, notifications and errors in it. Both front-ends keep the two in
// step:
// - switching the language while signed in stores it (PUT /api/profile {locale});
// - signing in switches the app to the stored language, unless the person chose a language on this
//   page before signing in (the console's and the web app's sign-in pages have the switch): then that
//   choice is the one they made last, and it is stored on the account instead.
// Guests' requests carry the app's language as Accept-Language.

interface Signed {
  token: string
  user: { locale: Lang }
}

/**
 * Starts keeping the app's language and the account's in step (once, at start). `save` stores the
 * language on the account and answers the updated user.
 */
export function syncLanguage<S extends Signed>(
  sessions: SessionStore<S>,
  language: Pick<Language<string>, 'get' | 'set' | 'onChange'>,
  save: (lang: Lang) => Promise<S['user']>,
): void {
  let signedInAs: string | null = sessions.current()?.token ?? null
  let chosenAsGuest = false
  // One save at a time: a switch while one is on its way is saved when it answers (the language
  // shown then is the one stored), so quick switches back and forth cannot leave the account in
  // the other language, and answers cannot arrive out of order.
  let saving = false

  function store(session: S) {
    if (saving) return
    saving = true
    save(language.get()).then(
      (user) => {
        saving = false
        const still = sessions.current()
        if (still?.token !== session.token) return
        sessions.set({ ...still, user })
        if (user.locale !== language.get()) store(still)
      },
      () => {
        saving = false // Not stored (offline, signed out meanwhile): the next switch tries again.
      },
    )
  }

  sessions.onChange(() => {
    const session = sessions.current()
    const token = session?.token ?? null
    const signedInNow = token !== null && token !== signedInAs
    signedInAs = token
    if (!signedInNow || !session) return
    const chosen = chosenAsGuest
    chosenAsGuest = false
    if (session.user.locale === language.get()) return
    if (chosen) store(session)
    else language.set(session.user.locale)
  })
  language.onChange((lang) => {
    const session = sessions.current()
    if (!session) {
      chosenAsGuest = true
      return
    }
    if (saving || session.user.locale !== lang) store(session)
  })
}
