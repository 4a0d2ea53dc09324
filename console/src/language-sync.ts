import { syncLanguage as sync } from '../../shared-ui/language-sync.ts'
import { api, ok, sessions } from './api.ts'
import { language } from './i18n/index.ts'

// The signed-in staff member's language lives on their account (shared-ui/language-sync.ts), so the
// service's errors and messages come in the language the console shows: switching while signed in
// stores it, signing in switches the console to it.

/** Starts keeping the console's language and the account's in step (once, at start). */
export function syncLanguage(): void {
  sync(sessions, language, async (locale) => (await ok(api().PUT('/api/profile', { body: { locale } }))).data)
}
