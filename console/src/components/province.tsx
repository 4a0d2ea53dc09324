import { t } from '../i18n/index.ts'
import type { SelectBinding } from './forms.tsx'
import { SelectField } from './ui.tsx'

// Nepal's seven provinces as a choice (issue 51), for the venue's `state`. A value saved before that
// is none of them (free text from an older console) stays choosable as it is. The stored value is
// always the English name; the choice shows the province's Nepali name in Nepali (issue 50).

export const PROVINCES = ['Koshi', 'Madhesh', 'Bagmati', 'Gandaki', 'Lumbini', 'Karnali', 'Sudurpashchim'] as const
type Province = (typeof PROVINCES)[number]

const isProvince = (value: string): value is Province => (PROVINCES as readonly string[]).includes(value)

/** A province's name in the language shown ("Bagmati" / "बागमती"); a free-text value as it is. */
export function provinceName(value: string): string {
  return isProvince(value) ? t(`province.${value}`) : value
}

export function ProvinceField(bind: SelectBinding) {
  const saved = bind.value && !isProvince(bind.value) ? [bind.value] : []
  const options = [
    ...(bind.value ? [] : [{ value: '', label: t('province.choose') }]),
    ...[...PROVINCES, ...saved].map((p) => ({ value: p, label: provinceName(p) })),
  ]
  return <SelectField label={t('province.label')} required options={options} {...bind} />
}
