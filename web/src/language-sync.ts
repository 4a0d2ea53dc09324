import { syncLanguage as sync } from '../../shared-ui/language-sync.ts'
import { api, ok } from './api.ts'
import { language } from './i18n/index.ts'
import { sessions } from './session.ts'

// The signed-in player's language lives on their account (shared-ui/language-sync.ts): switching
// while signed in stores it, signing in switches the app to it.

/** Starts keeping the app's language and the account's in step (once, at start). */
export function syncLanguage(): void {
  sync(sessions, language, async (locale) => (await ok(api().PUT('/api/profile', { body: { locale } }))).data)
}
