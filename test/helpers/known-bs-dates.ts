// AD dates with their Bikram Sambat dates known from elsewhere: the receipts' conversion
// (test/receipts/nepali-date.test.ts) and the customer app's dates (test/web/i18n.test.ts) are both
// checked against this one table. Where each value comes from:
//  [pkg]  what nepali-date-converter 3.4.0 answers (read when it was chosen; bikram-sambat 1.8.1
//         from npm gave the same AD dates for Shrawan 1 of 2080–2084).
//  [py]   the independent table of opensource-nepal/py-nepali (nepali/date_converter.py, commit
//         0a255fa of 2026-03-22), nepali_to_english(...) run by hand.
//  [news] fiscalnepal.com, 17 July 2025, "Nepal's new budget comes into effect today as new fiscal
//         year begins": FY 2081/82 ended on Wednesday and FY 2082/83 began "from Thursday
//         (Shrawan 1)", i.e. Thursday 17 July 2025.
//  [rss]  RSS via eng.danfetv.com, July 2023: the FY 2080/81 budget is implemented "from July 17"
//         (Shrawan 1, 2080 = 17 July 2023).
//  [tihar] bishwashkhabar.com on the 2081 calendar of the Nepal Panchanga Nirnayak Samiti: Laxmi Puja
//         on Kartik 15, 2081, a Thursday (31 October 2024).
//  [dashain] himalayakhabar.com: Vijaya Dashami "2082 साल असोज १६ गते अर्थात अक्टोबर २, २०२५".
export const KNOWN_BS_DATES: Array<[ad: string, bs: string, sources: string]> = [
  ['2023-07-17', '2080-04-01', 'pkg py rss'],
  ['2024-07-15', '2081-03-31', 'pkg py'], // the last day of FY 2080/81 (Ashad has 31 days in 2081)
  ['2024-07-16', '2081-04-01', 'pkg py'], // Shrawan 1, 2081: FY 2081/82 begins
  ['2024-10-31', '2081-07-15', 'pkg py tihar'],
  ['2025-04-14', '2082-01-01', 'pkg py'], // Baisakh 1, 2082: the BS new year, not a new fiscal year
  ['2025-07-16', '2082-03-32', 'pkg py news'], // the last day of FY 2081/82
  ['2025-07-17', '2082-04-01', 'pkg py news'], // Shrawan 1, 2082: FY 2082/83 begins
  ['2025-10-02', '2082-06-16', 'pkg py dashain'],
  ['2026-04-14', '2083-01-01', 'pkg py'],
  ['2026-07-16', '2083-03-32', 'pkg py'], // the last day of FY 2082/83
  ['2026-07-17', '2083-04-01', 'pkg py'], // Shrawan 1, 2083: FY 2083/84 begins
  ['2027-07-17', '2084-04-01', 'pkg py'],
]
