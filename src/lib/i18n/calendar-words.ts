// The words and digits of numbers and dates in English and Nepali, shared by the server's messages
// (format.ts here) and both front-ends (shared-ui/format.ts). Pure: no Node, no time zone, no "now",
// so the browser bundles import it as they import src/lib/nepali-date.ts.

export type Lang = 'en' | 'ne'

const DEVANAGARI = '०१२३४५६७८९'

/** Latin digits → Devanagari digits in Nepali; anything else unchanged. */
export function digits(text: string, lang: Lang): string {
  return lang === 'ne' ? text.replace(/[0-9]/g, (d) => DEVANAGARI[Number(d)]) : text
}

/** Groups an integer's digits the South Asian way: the last three, then pairs (1,00,000). */
export function groupLakh(integer: string): string {
  if (integer.length <= 3) return integer
  const rest = integer.slice(0, -3)
  const pairs: string[] = []
  for (let end = rest.length; end > 0; end -= 2) pairs.unshift(rest.slice(Math.max(0, end - 2), end))
  return `${pairs.join(',')},${integer.slice(-3)}`
}

/** Gregorian months, January first, as short English names and Nepali names. */
export const AD_MONTHS: Record<Lang, readonly string[]> = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  ne: ['जनवरी', 'फेब्रुअरी', 'मार्च', 'अप्रिल', 'मे', 'जुन', 'जुलाई', 'अगस्ट', 'सेप्टेम्बर', 'अक्टोबर', 'नोभेम्बर', 'डिसेम्बर'],
}

/** Bikram Sambat months, Baisakh first. */
export const BS_MONTHS: Record<Lang, readonly string[]> = {
  en: [
    'Baisakh',
    'Jestha',
    'Asar',
    'Shrawan',
    'Bhadra',
    'Ashwin',
    'Kartik',
    'Mangsir',
    'Poush',
    'Magh',
    'Falgun',
    'Chaitra',
  ],
  ne: ['वैशाख', 'जेठ', 'असार', 'साउन', 'भदौ', 'असोज', 'कात्तिक', 'मंसिर', 'पुस', 'माघ', 'फागुन', 'चैत'],
}

/** Weekdays, 0 = Sunday (as the API numbers them): short names (screens) and full names (messages). */
export const WEEKDAYS_SHORT: Record<Lang, readonly string[]> = {
  en: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
  ne: ['आइत', 'सोम', 'मंगल', 'बुध', 'बिहि', 'शुक्र', 'शनि'],
}
export const WEEKDAYS_LONG: Record<Lang, readonly string[]> = {
  en: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
  ne: ['आइतबार', 'सोमबार', 'मंगलबार', 'बुधबार', 'बिहीबार', 'शुक्रबार', 'शनिबार'],
}
