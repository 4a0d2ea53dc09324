import { LANGS, type Lang, setLang, translate, useLang } from '../i18n/index.ts'

/**
 * The console's language switch (docs/console.md, "Languages"): each language named in itself, so
 * a reader finds theirs whichever is shown. Any page may place it (the shell's header has a compact
 * one beside the brand, so the header is no taller on a phone).
 */
export function LanguageSwitch({ compact = false }: { compact?: boolean }) {
  const lang = useLang()
  return (
    <label class="lang-pick">
      {/* Compact (the shell's header): the label is for screen readers, the select says what it is. */}
      <span class={compact ? 'sr-only' : undefined}>{translate(lang, 'lang.label')}</span>
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
