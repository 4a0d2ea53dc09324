import { useEffect, useState } from 'preact/hooks'
import { api, messageOf, ok, type Schemas } from '../api.ts'
import { t } from '../i18n/index.ts'

type Venue = Schemas['Venue']

/** A venue's page, by id or slug (/venues/:key, /v/:slug); `embed` is the framable widget. */
export function VenuePage({ slug, embed = false }: { slug: string; date: string | null; embed?: boolean }) {
  const [venue, setVenue] = useState<Venue | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    let live = true
    ok(api().GET('/api/venues/{venue}', { params: { path: { venue: slug } } }))
      .then((v) => live && setVenue(v.data as Venue))
      .catch((err) => live && setError(messageOf(err)))
    return () => {
      live = false
    }
  }, [slug])
  const body = error ? (
    <p role="alert">{error}</p>
  ) : !venue ? (
    <p aria-busy="true">{t('app.loading')}</p>
  ) : (
    <section>
      <h1>{venue.name}</h1>
      <p>{venue.address}</p>
    </section>
  )
  return embed ? <main id="main">{body}</main> : body
}
