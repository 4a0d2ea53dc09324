// An amount in words, as an invoice prints it: English ("One Thousand Five Hundred Rupees and Fifty
// Paisa Only") and Nepali ("एक हजार पाँच सय रुपैयाँ पचास पैसा मात्र"), both in the South Asian scale
// (hundred, thousand, lakh, crore, arab). Amounts are paisa.

const EN_ONES = [
  '',
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
  'Sixteen',
  'Seventeen',
  'Eighteen',
  'Nineteen',
]
const EN_TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety']

/** 1–99 in Nepali: every number has its own word. */
const NE_1_99 = (
  'एक दुई तीन चार पाँच छ सात आठ नौ दश ' +
  'एघार बाह्र तेह्र चौध पन्ध्र सोह्र सत्र अठार उन्नाइस बीस ' +
  'एक्काइस बाइस तेइस चौबीस पच्चीस छब्बीस सत्ताइस अट्ठाइस उनन्तीस तीस ' +
  'एकतीस बत्तीस तेत्तीस चौंतीस पैंतीस छत्तीस सैंतीस अठतीस उनन्चालीस चालीस ' +
  'एकचालीस बयालीस त्रिचालीस चवालीस पैंतालीस छयालीस सतचालीस अठचालीस उनन्चास पचास ' +
  'एकाउन्न बाउन्न त्रिपन्न चउन्न पचपन्न छपन्न सन्ताउन्न अन्ठाउन्न उनन्साठी साठी ' +
  'एकसट्ठी बयसट्ठी त्रिसट्ठी चौंसट्ठी पैंसट्ठी छयसट्ठी सतसट्ठी अठसट्ठी उनन्सत्तरी सत्तरी ' +
  'एकहत्तर बहत्तर त्रिहत्तर चौहत्तर पचहत्तर छयहत्तर सतहत्तर अठहत्तर उनासी असी ' +
  'एकासी बयासी त्रियासी चौरासी पचासी छयासी सतासी अठासी उनान्नब्बे नब्बे ' +
  'एकानब्बे बयानब्बे त्रियानब्बे चौरानब्बे पन्चानब्बे छयानब्बे सन्तानब्बे अन्ठानब्बे उनान्सय'
).split(' ')

const SCALES: Array<{ size: number; en: string; ne: string }> = [
  { size: 1_000_000_000, en: 'Arab', ne: 'अर्ब' },
  { size: 10_000_000, en: 'Crore', ne: 'करोड' },
  { size: 100_000, en: 'Lakh', ne: 'लाख' },
  { size: 1_000, en: 'Thousand', ne: 'हजार' },
  { size: 100, en: 'Hundred', ne: 'सय' },
]

const en99 = (n: number) =>
  n < 20 ? EN_ONES[n] : [EN_TENS[Math.floor(n / 10)], EN_ONES[n % 10]].filter(Boolean).join('-')
const ne99 = (n: number) => NE_1_99[n - 1]

/** A whole number in words in the South Asian scale ("One Lakh Twenty Thousand"); 0 gives "". */
function spell(n: number, lang: 'en' | 'ne'): string {
  const parts: string[] = []
  let rest = n
  for (const scale of SCALES) {
    const count = Math.floor(rest / scale.size)
    if (count === 0) continue
    // Above an arab the count itself is spelled out again ("One Hundred Arab").
    parts.push(count >= 100 ? spell(count, lang) : lang === 'en' ? en99(count) : ne99(count))
    parts.push(lang === 'en' ? scale.en : scale.ne)
    rest %= scale.size
  }
  if (rest > 0) parts.push(lang === 'en' ? en99(rest) : ne99(rest))
  return parts.join(' ')
}

/** "One Thousand Five Hundred Rupees and Fifty Paisa Only"; 0 is "Zero Rupees Only". */
export function amountInWords(paisa: number, lang: 'en' | 'ne'): string {
  const rupees = Math.floor(Math.abs(paisa) / 100)
  const cents = Math.abs(paisa) % 100
  if (lang === 'en') {
    const r = `${rupees === 0 ? 'Zero' : spell(rupees, 'en')} Rupees`
    return cents === 0 ? `${r} Only` : `${r} and ${spell(cents, 'en')} Paisa Only`
  }
  const r = `${rupees === 0 ? 'शून्य' : spell(rupees, 'ne')} रुपैयाँ`
  return cents === 0 ? `${r} मात्र` : `${r} ${spell(cents, 'ne')} पैसा मात्र`
}
