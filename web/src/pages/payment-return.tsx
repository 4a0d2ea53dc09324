import { t } from '../i18n/index.ts'

/** Back from a gateway: the payment's state as the service says it. */
export function PaymentReturnPage(_props: { payment: string }) {
  return (
    <section>
      <h1>{t('pay.title')}</h1>
    </section>
  )
}
