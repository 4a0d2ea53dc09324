import { useEffect, useState } from 'preact/hooks'
import { api, messageOf, ok, type Schemas } from '../api.ts'
import { t } from '../i18n/index.ts'
import { Link, navigate } from '../router.ts'

type Venue = Schemas['Venue']

/** The catalogue: search, sport, sort; each venue a card linking to its page. */
export function FindPage({ query }: { query: URLSearchParams }) {
  const search = query.get('q') ?? ''
  const [venues, setVenues] = useState<Venue[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const key = query.toString()

  useEffect(() => {
    let live = true
    setError(null)
    ok(api().GET('/api/venues', { params: { query: { search: search || undefined, per_page: 30 } } }))
      .then((page) => live && setVenues(page.data))
      .catch((err) => live && setError(messageOf(err)))
    return () => {
      live = false
    }
  }, [key])

  return (
    <section>
      <h1>{t('find.title')}</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          const q = new FormData(e.currentTarget).get('q')?.toString().trim() ?? ''
          navigate(q ? `/?q=${encodeURIComponent(q)}` : '/')
        }}
      >
        <label for="find-q">{t('find.search')}</label>
        <input id="find-q" name="q" type="search" defaultValue={search} />
        <button type="submit">{t('find.go')}</button>
      </form>
      {error && <p role="alert">{error}</p>}
      {!venues && !error && <p aria-busy="true">{t('app.loading')}</p>}
      {venues && venues.length === 0 && <p>{t('find.none')}</p>}
      {venues && (
        <ul class="cards">
          {venues.map((v) => (
            <li key={v.id} class="card">
              <Link href={`/venues/${v.slug}`}>{v.name}</Link>
              <p class="muted">
                {v.address}, {v.city}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
