import { t } from '../i18n/index.ts'

/** Reviewing a booking before paying: the slots, a coupon, the price and how to pay. */
export function BookPage(_props: { query: URLSearchParams }) {
  return (
    <section>
      <h1>{t('book.title')}</h1>
    </section>
  )
}
