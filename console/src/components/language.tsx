import { LANGS, type Lang, setLang, translate, useLang } from '../i18n/index.ts'

/**
 * The console's language switch (docs/console.md, "Languages"): each language named in itself, so
 * a reader finds theirs whichever is shown. Any page may place it (the shell's header has one).
 */
export function LanguageSwitch() {
  const lang = useLang()
  return (
    <label class="lang-pick">
      <span>{translate(lang, 'lang.label')}</span>
      <select value={lang} onChange={(e) => setLang(e.currentTarget.value as Lang)}>
        {LANGS.map((l) => (
          <option key={l} value={l} lang={l === 'ne' ? 'ne-NP' : 'en'}>
            {translate(l, l === 'ne' ? 'lang.ne' : 'lang.en')}
          </option>
        ))}
      </select>
    </label>
  )
}
