// The server's languages (docs/languages.md): the catalogue (en.ts, ne.ts), how a text is written
// in a language (translate.ts, format.ts) and which language a request or a person reads (locale.ts).
export type { MessageKey } from './en.ts'
export { adDate, clock12, digits, longDate, moment, moneyText } from './format.ts'
export {
  acceptedLocale,
  asLocale,
  DEFAULT_LOCALE,
  LOCALES,
  type Locale,
  recipientLocale,
  requestLocale,
} from './locale.ts'
export { hasMessage, type Params, t, translate } from './translate.ts'
