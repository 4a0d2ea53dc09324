import { useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../../api.ts'
import {
  CheckField,
  ConfirmDialog,
  hhmm,
  intOf,
  Outcome,
  orNull,
  Section,
  TextAreaField,
  useForm,
  useLoad,
} from '../../components/forms.tsx'
import { LocationMap } from '../../components/location-map.tsx'
import { ProvinceField } from '../../components/province.tsx'
import { Field, Loading, Notice, RowAction, SelectField } from '../../components/ui.tsx'
import { localName, t } from '../../i18n/index.ts'
import type { TabProps } from './index.tsx'

// The venue's details (name, contact, address, opening hours, free-cancellation hours, the booking
// rules for customers) and its photos (one thumbnail, a gallery): upload and delete. Words from the
// console's catalogue (issue 50); the embed snippet's title stays English (it is the venue's website's).

type Venue = Schemas['Venue']
type Image = Schemas['VenueImage']

/** A number field that may be left empty for "no limit" (null). */
const limitOf = (text: string) => (text.trim() === '' ? null : intOf(text))

export function DetailsTab({ venue, onVenueChanged }: TabProps) {
  const venueId = String(venue.id)
  const fresh = useLoad(
    () => ok(api().GET('/api/venues/{venue}', { params: { path: { venue: venueId } } })).then((r) => r.data),
    [venueId],
  )
  if (fresh.error) return <Notice kind="error">{fresh.error}</Notice>
  if (!fresh.data) return <Loading what={t('wizard.loadingVenue')} />
  return (
    <div class="manage-stack">
      <DetailsForm
        venue={fresh.data}
        onSaved={() => {
          fresh.reload()
          onVenueChanged()
        }}
      />
      <Images venue={fresh.data} onChanged={fresh.reload} />
      <Embed venue={fresh.data} />
    </div>
  )
}

/** The <iframe> a venue pastes into its own website: its booking widget (docs/web.md, "Embedding"). */
export function embedSnippet(origin: string, venue: Pick<Venue, 'name' | 'slug'>): string {
  const title = `Book at ${venue.name}`.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
  return `<iframe src="${origin}/embed/v/${venue.slug}" title="${title}" width="100%" height="640" style="border:0;max-width:480px" loading="lazy"></iframe>`
}

/** "Embed on your website": the widget's snippet to copy, and the venue's own page to share. */
function Embed({ venue }: { venue: Venue }) {
  const snippet = embedSnippet(location.origin, venue)
  const page = `${location.origin}/v/${venue.slug}`
  const [copied, setCopied] = useState<string | null>(null)
  async function copy() {
    try {
      await navigator.clipboard.writeText(snippet)
      setCopied(t('embed.copied'))
    } catch {
      setCopied(t('embed.copyByHand'))
    }
  }
  return (
    <Section title={t('embed.title')}>
      <p>
        {t('embed.explain')} <a href={page}>{page}</a>
        {t('embed.stop')}
      </p>
      {!venue.is_verified && <Notice kind="info">{t('embed.onceVerified')}</Notice>}
      <div class="field">
        <label for="embed-snippet">{t('embed.snippet')}</label>
        <textarea id="embed-snippet" value={snippet} readOnly rows={4} onFocus={(e) => e.currentTarget.select()} />
      </div>
      <p class="actions">
        <button type="button" onClick={copy}>
          {t('embed.copy')}
        </button>
      </p>
      {copied && <p role="status">{copied}</p>}
    </Section>
  )
}

function DetailsForm({ venue, onSaved }: { venue: Venue; onSaved: () => void }) {
  const f = useForm({
    name: venue.name,
    description: venue.description ?? '',
    phone: venue.phone ?? '',
    email: venue.email ?? '',
    address: venue.address,
    city: venue.city,
    state: venue.state,
    latitude: venue.latitude,
    longitude: venue.longitude,
    opening_time: hhmm(venue.opening_time),
    closing_time: hhmm(venue.closing_time),
    free_cancellation_hours: String(venue.free_cancellation_hours),
    booking_window_days: String(venue.booking_window_days),
    min_notice_minutes: String(venue.min_notice_minutes),
    max_hours_per_day: venue.max_hours_per_day === null ? '' : String(venue.max_hours_per_day),
    no_show_limit: venue.no_show_limit === null ? '' : String(venue.no_show_limit),
    allows_pay_at_venue: venue.allows_pay_at_venue,
  })
  const v = f.values
  async function save(e: Event) {
    e.preventDefault()
    await f.submit(async () => {
      await ok(
        api().PATCH('/api/venues/{venue}', {
          params: { path: { venue: String(venue.id) } },
          body: {
            name: v.name.trim(),
            description: orNull(v.description),
            phone: orNull(v.phone),
            email: orNull(v.email),
            address: v.address.trim(),
            city: v.city.trim(),
            state: v.state.trim(),
            // Not a number is sent as typed, so the service's 422 names the field.
            latitude: v.latitude.trim() === '' ? Number.NaN : Number(v.latitude),
            longitude: v.longitude.trim() === '' ? Number.NaN : Number(v.longitude),
            opening_time: v.opening_time,
            closing_time: v.closing_time,
            free_cancellation_hours: intOf(v.free_cancellation_hours),
            booking_window_days: intOf(v.booking_window_days),
            min_notice_minutes: intOf(v.min_notice_minutes),
            max_hours_per_day: limitOf(v.max_hours_per_day),
            no_show_limit: limitOf(v.no_show_limit),
            allows_pay_at_venue: v.allows_pay_at_venue,
          },
        }),
      )
      onSaved()
      return t('details.saved')
    })
  }
  return (
    <Section title={t('details.title')}>
      <form onSubmit={save}>
        <Outcome error={f.error} notice={f.notice} />
        <Field label={t('details.name')} {...f.bind('name')} required />
        <TextAreaField label={t('details.description')} {...f.bind('description')} />
        <div class="row">
          <Field label={t('common.phone')} type="tel" {...f.bind('phone')} />
          <Field label={t('details.email')} type="email" {...f.bind('email')} />
        </div>
        <div class="row">
          <Field label={t('details.address')} {...f.bind('address')} required />
          <Field label={t('details.city')} {...f.bind('city')} required />
          <ProvinceField {...f.bindSelect('state')} />
        </div>
        <LocationMap
          latitude={v.latitude}
          longitude={v.longitude}
          onPick={(latitude, longitude) => f.setValues((x) => ({ ...x, latitude, longitude }))}
        />
        <div class="row">
          <Field label={t('details.latitude')} inputMode="decimal" {...f.bind('latitude')} required />
          <Field label={t('details.longitude')} inputMode="decimal" {...f.bind('longitude')} required />
        </div>
        <div class="row">
          <Field label={t('details.opensAt')} type="time" {...f.bind('opening_time')} required />
          <Field label={t('details.closesAt')} type="time" {...f.bind('closing_time')} required />
          <Field
            label={t('details.freeCancellation')}
            type="number"
            min={0}
            hint={t('details.freeCancellationHint')}
            {...f.bind('free_cancellation_hours')}
          />
        </div>
        <h3>{t('details.rules')}</h3>
        <p>{t('details.rulesExplain')}</p>
        <div class="row">
          <Field
            label={t('details.window')}
            type="number"
            min={1}
            hint={t('details.windowHint')}
            {...f.bind('booking_window_days')}
          />
          <Field
            label={t('details.notice')}
            type="number"
            min={0}
            hint={t('details.noticeHint')}
            {...f.bind('min_notice_minutes')}
          />
        </div>
        <div class="row">
          <Field
            label={t('details.hoursPerDay')}
            type="number"
            min={1}
            hint={t('details.hoursPerDayHint')}
            {...f.bind('max_hours_per_day')}
          />
          <Field
            label={t('details.noShows')}
            type="number"
            min={1}
            hint={t('details.noShowsHint')}
            {...f.bind('no_show_limit')}
          />
        </div>
        <CheckField
          label={t('details.payAtVenue')}
          checked={v.allows_pay_at_venue}
          onChange={f.check('allows_pay_at_venue')}
          error={f.fieldError('allows_pay_at_venue')}
        />
        <p class="hint">{t('details.payAtVenueHint')}</p>
        <div class="actions">
          <button type="submit" class="primary" disabled={f.busy}>
            {t('details.save')}
          </button>
        </div>
      </form>
    </Section>
  )
}

export function Images({ venue, onChanged }: { venue: Venue; onChanged: () => void }) {
  const f = useForm({ collection: 'gallery' })
  const [file, setFile] = useState<File | null>(null)
  const [inputKey, setInputKey] = useState(0)
  const [removing, setRemoving] = useState<Image | null>(null)
  const images = [...(venue.thumbnail ? [venue.thumbnail] : []), ...venue.gallery]
  async function upload(e: Event) {
    e.preventDefault()
    await f.submit(async () => {
      if (!file) throw new Error(t('photos.choose'))
      const form = new FormData()
      form.set('image', file)
      form.set('collection', f.values.collection)
      await ok(
        api().POST('/api/venues/{venue}/images', {
          params: { path: { venue: String(venue.id) } },
          // The typed body is the multipart fields; openapi-fetch sends a FormData as it is.
          body: form as unknown as { image: Blob },
        }),
      )
      setFile(null)
      setInputKey((k) => k + 1)
      onChanged()
      return t('photos.uploaded')
    })
  }
  return (
    <Section title={t('wizard.stepPhotos')}>
      {images.length === 0 ? (
        <p>{t('photos.none')}</p>
      ) : (
        <ul class="image-list">
          {images.map((img) => (
            <li key={img.id}>
              <img
                src={img.thumb_url}
                alt={t(img.collection === 'thumbnail' ? 'photos.altThumbnail' : 'photos.altGallery', {
                  venue: localName(venue),
                  id: String(img.id),
                })}
              />
              <span>{img.collection === 'thumbnail' ? t('photos.thumbnail') : t('photos.gallery')}</span>
              <RowAction
                label={t('photos.delete')}
                of={t('photos.photo', { id: String(img.id) })}
                onClick={() => setRemoving(img)}
              />
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={upload}>
        <Outcome error={f.error} notice={f.notice} />
        <div class="row">
          <div class="field">
            <label for="venue-photo">{t('photos.file')}</label>
            <input
              key={inputKey}
              id="venue-photo"
              type="file"
              accept="image/jpeg,image/png,image/webp"
              aria-invalid={f.fieldError('image') ? 'true' : undefined}
              aria-describedby={f.fieldError('image') ? 'venue-photo-error' : undefined}
              onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
            />
            {f.fieldError('image') && (
              <p class="error" id="venue-photo-error">
                {f.fieldError('image')}
              </p>
            )}
          </div>
          <SelectField
            label={t('photos.useAs')}
            options={[
              { value: 'gallery', label: t('photos.galleryPhoto') },
              { value: 'thumbnail', label: t('photos.thumbnailReplaces') },
            ]}
            {...f.bindSelect('collection')}
          />
        </div>
        <div class="actions">
          <button type="submit" class="primary" disabled={f.busy}>
            {t('photos.upload')}
          </button>
        </div>
      </form>
      {removing && (
        <ConfirmDialog
          title={t('photos.deleteTitle')}
          confirm={t('photos.deleteConfirm')}
          action={() =>
            ok(
              api().DELETE('/api/venues/{venue}/images/{id}', {
                params: { path: { venue: String(venue.id), id: String(removing.id) } },
              }),
            )
          }
          onClose={() => setRemoving(null)}
          onDone={() => {
            setRemoving(null)
            f.setNotice(t('photos.deleted'))
            onChanged()
          }}
        >
          <img
            class="dialog-image"
            src={removing.thumb_url}
            alt={t('photos.altNumber', { venue: localName(venue), id: String(removing.id) })}
          />
        </ConfirmDialog>
      )}
    </Section>
  )
}
