import { getLang } from './i18n/index.ts'

// Names that read in Nepali (docs/catalogue.md, "Names in Nepali"): sports and amenities carry
// name_ne, a venue may carry name_ne and address_ne. Shown in Nepali the Nepali one is used when
// there is one, otherwise the name as the venue wrote it.

/** A venue's, sport's or amenity's name in the language shown. */
export function localName(item: { name: string; name_ne?: string | null }): string {
  return (getLang() === 'ne' && item.name_ne) || item.name
}

/** A venue's address in the language shown. */
export function localAddress(venue: { address: string; address_ne?: string | null }): string {
  return (getLang() === 'ne' && venue.address_ne) || venue.address
}
