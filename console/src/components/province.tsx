import type { SelectBinding } from './forms.tsx'
import { SelectField } from './ui.tsx'

// Nepal's seven provinces as a choice (issue 51), for the venue's `state`. A value saved before that
// is none of them (free text from an older console) stays choosable as it is.

export const PROVINCES = ['Koshi', 'Madhesh', 'Bagmati', 'Gandaki', 'Lumbini', 'Karnali', 'Sudurpashchim']

export function ProvinceField(bind: SelectBinding) {
  const saved = bind.value && !PROVINCES.includes(bind.value) ? [bind.value] : []
  const options = [
    ...(bind.value ? [] : [{ value: '', label: 'Choose a province' }]),
    ...[...PROVINCES, ...saved].map((p) => ({ value: p, label: p })),
  ]
  return <SelectField label="Province" required options={options} {...bind} />
}
