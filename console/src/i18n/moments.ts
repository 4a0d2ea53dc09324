import { bothDates, digits, getLang } from './index.ts'

// Dates and moments on the pages translated for console-ne-b (pricing, coupons, staff, IRD, webhooks,
// reviews, tournaments, administration). In English each page keeps the very text it always showed
// (its own `english` form: "2026-11-25", "2026-11-25 18:15"); in Nepali the AD date with its weekday
// and the BS date beside it, and times in Devanagari digits.

/** A date ("2026-11-25…"): `english` in English; "बुध २५ नोभेम्बर २०२६ · १० मंसिर २०८३" in Nepali. */
export function dayText(isoDate: string, english: string = isoDate.slice(0, 10)): string {
  return getLang() === 'ne' ? bothDates(isoDate.slice(0, 10)) : english
}

/**
 * An instant as the API writes it ("2026-11-25 18:15:00" or "2026-11-25T18:15:00+05:45", both venue
 * time): `english` in English; in Nepali its date as dayText and the venue-local time,
 * "बुध २५ नोभेम्बर २०२६ · १० मंसिर २०८३, १८:१५".
 */
export function momentText(instant: string, english: string): string {
  if (getLang() !== 'ne') return english
  const time = instant.slice(11, 16)
  return time ? `${bothDates(instant.slice(0, 10))}, ${digits(time)}` : bothDates(instant.slice(0, 10))
}
