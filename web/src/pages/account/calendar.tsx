import { useState } from 'preact/hooks'
import { api, ok } from '../../api.ts'
import { Outcome, useAction } from '../../components/account.tsx'
import { t } from '../../i18n/index.ts'

/** The secret iCalendar link of the customer's bookings (GET /api/calendar/feed), and a new one on demand. */
export function CalendarLink() {
  const [url, setUrl] = useState<string | null>(null)
  const action = useAction()
  const show = () =>
    action.run(async () => {
      setUrl((await ok(api().GET('/api/calendar/feed'))).data.url)
    })
  return (
    <section aria-labelledby="calendar-title">
      <h2 id="calendar-title">{t('calendar.title')}</h2>
      <p>{t('calendar.intro')}</p>
      {url === null ? (
        <button type="button" class="secondary" disabled={action.busy} onClick={show}>
          {t('bookings.calendar')}
        </button>
      ) : (
        <>
          <label for="calendar-url">{t('calendar.link')}</label>
          <input id="calendar-url" class="wide-input" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
          <div class="actions">
            <button
              type="button"
              onClick={() =>
                action.run(async () => {
                  await navigator.clipboard.writeText(url)
                  return t('calendar.copied')
                })
              }
            >
              {t('calendar.copy')}
            </button>
            <a class="button secondary" href={url.replace(/^https?:/, 'webcal:')}>
              {t('calendar.subscribe')}
            </a>
            <button
              type="button"
              class="secondary"
              aria-describedby="calendar-rotate-hint"
              onClick={() =>
                action.run(async () => {
                  setUrl((await ok(api().POST('/api/calendar/feed/rotate'))).data.url)
                })
              }
            >
              {t('calendar.rotate')}
            </button>
          </div>
          <p id="calendar-rotate-hint" class="muted">
            {t('calendar.rotateHint')}
          </p>
        </>
      )}
      <Outcome notice={action.notice} message={action.message} />
    </section>
  )
}
