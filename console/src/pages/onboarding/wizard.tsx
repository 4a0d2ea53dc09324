import { useEffect, useRef, useState } from 'preact/hooks'
import { ApiError, api, currentSession, ok, type Schemas, setSession } from '../../api.ts'
import { slotOptions, sportName, WeekSummary } from '../../components/court-week.tsx'
import {
  hhmm,
  Loaded,
  Outcome,
  rupees,
  Section,
  Table,
  TextAreaField,
  useForm,
  useLoad,
} from '../../components/forms.tsx'
import { LocationMap } from '../../components/location-map.tsx'
import { ProvinceField } from '../../components/province.tsx'
import { Field, Loading, Notice, SelectField } from '../../components/ui.tsx'
import { money } from '../../format.ts'
import { count, localName, type MessageKey, t } from '../../i18n/index.ts'
import { go, href } from '../../router.ts'
import type { Venue as MyVenue } from '../../session.ts'
import { Images } from '../manage/details.tsx'
import { VerificationTab } from '../manage/verification.tsx'
import { OpeningHoursForm, PriceBandForm } from './hours.tsx'

// Issue 33, owner onboarding: a signed-in user with a verified email creates a venue step by step,
// every step saved through the public API as it is done (the venue exists from the first step on):
//   #/new-venue                  details → POST /api/venues (the caller becomes its owner)
//   #/new-venue/:id/details      the same details, saved with PATCH
//   #/new-venue/:id/courts       courts (POST /api/venues/{venue}/courts)
//   #/new-venue/:id/hours        weekly hours and prices for several courts at once
//                                (PUT /api/courts/{court}/schedule, POST /api/courts/{court}/pricing)
//   #/new-venue/:id/photos       photos (POST /api/venues/{venue}/images)
//   #/new-venue/:id/verification the request to the Courtside team (POST …/verification/request)

type Venue = Schemas['Venue']

// Each step's name is a catalogue key, named at render time (in the language shown).
const STEPS = [
  { key: 'details', label: 'wizard.stepDetails' },
  { key: 'courts', label: 'wizard.stepCourts' },
  { key: 'hours', label: 'wizard.stepHours' },
  { key: 'photos', label: 'wizard.stepPhotos' },
  { key: 'verification', label: 'wizard.stepVerification' },
] as const satisfies readonly { key: string; label: MessageKey }[]
type StepKey = (typeof STEPS)[number]['key']

export function NewVenueWizard({
  venueId,
  step,
  venues,
  onVenuesChanged,
}: {
  venueId?: number
  step?: string
  venues: MyVenue[]
  onVenuesChanged: () => void
}) {
  const current: StepKey = venueId === undefined ? 'details' : (STEPS.find((s) => s.key === step)?.key ?? 'details')
  const index = STEPS.findIndex((s) => s.key === current)
  const mine = venueId === undefined ? undefined : venues.find((v) => v.id === venueId)
  // A venue just created is not in the list yet: ask for the list once, and say "not yours" only
  // when the fresh list (a new array) still lacks it.
  const missing = venueId !== undefined && !mine
  const asked = useRef<{ id: number; list: MyVenue[] } | null>(null)
  useEffect(() => {
    if (missing && venueId !== undefined && asked.current?.id !== venueId) {
      asked.current = { id: venueId, list: venues }
      onVenuesChanged()
    }
  }, [missing, venueId])
  if (missing && (asked.current?.id !== venueId || asked.current?.list === venues)) {
    return <Loading what={t('wizard.loadingVenues')} />
  }
  if (venueId !== undefined && !mine) {
    return (
      <section>
        <h1>{t('wizard.newVenue')}</h1>
        <Notice kind="error">{t('common.venueNotYours')}</Notice>
      </section>
    )
  }
  if (mine && mine.my_role !== 'owner' && mine.my_role !== 'super_admin') {
    return (
      <section>
        <h1>{t('wizard.setUp', { venue: localName(mine) })}</h1>
        <Notice kind="error">{t('wizard.ownerOnly', { venue: localName(mine) })}</Notice>
      </section>
    )
  }
  return (
    <section class="wizard">
      <h1>{mine ? t('wizard.setUp', { venue: localName(mine) }) : t('wizard.addYours')}</h1>
      <nav aria-label={t('wizard.steps')}>
        <ol class="steps">
          {STEPS.map((s, i) => (
            <li key={s.key} class={i === index ? 'current' : i < index ? 'done' : undefined}>
              {venueId === undefined || i === index ? (
                <span aria-current={i === index ? 'step' : undefined}>
                  {count(i + 1)}. {t(s.label)}
                </span>
              ) : (
                <a href={href(`/new-venue/${venueId}/${s.key}`)}>
                  {count(i + 1)}. {t(s.label)}
                </a>
              )}
            </li>
          ))}
        </ol>
      </nav>
      <p class="muted">{t('wizard.stepOf', { n: index + 1, of: STEPS.length })}</p>
      {current === 'details' && <DetailsStep venueId={venueId} onVenuesChanged={onVenuesChanged} />}
      {venueId !== undefined && current === 'courts' && <CourtsStep venueId={venueId} />}
      {venueId !== undefined && current === 'hours' && <HoursStep venueId={venueId} />}
      {venueId !== undefined && current === 'photos' && <PhotosStep venueId={venueId} />}
      {mine && current === 'verification' && (
        <>
          <VerificationTab venue={mine} onVenueChanged={onVenuesChanged} />
          <p class="actions">
            <a class="button" href={href(`/venues/${mine.id}/board`)}>
              {t('wizard.openBoard')}
            </a>
            <a class="button" href={href(`/venues/${mine.id}/manage`)}>
              {t('shell.manage')}
            </a>
          </p>
        </>
      )}
    </section>
  )
}

/** "Continue to …" to the next step (a link: each step has saved what it shows). */
function Next({ venueId, to, label }: { venueId: number; to: StepKey; label: string }) {
  return (
    <p class="actions">
      <a class="button primary" href={href(`/new-venue/${venueId}/${to}`)}>
        {label}
      </a>
    </p>
  )
}

// --- 1. Details ----------------------------------------------------------------------------------

const EMPTY_DETAILS = {
  name: '',
  description: '',
  phone: '',
  email: '',
  address: '',
  city: '',
  state: '',
  latitude: '',
  longitude: '',
  opening_time: '06:00',
  closing_time: '21:00',
}

function detailsOf(v: Venue): typeof EMPTY_DETAILS {
  return {
    name: v.name,
    description: v.description ?? '',
    phone: v.phone ?? '',
    email: v.email ?? '',
    address: v.address,
    city: v.city,
    state: v.state,
    latitude: v.latitude,
    longitude: v.longitude,
    opening_time: hhmm(v.opening_time),
    closing_time: hhmm(v.closing_time),
  }
}

/** A coordinate as typed; not a number is sent as it is so the service names the field. */
function coordinate(text: string): number {
  const t = text.trim()
  return t === '' ? Number.NaN : Number(t)
}

function DetailsStep({ venueId, onVenuesChanged }: { venueId?: number; onVenuesChanged: () => void }) {
  const loaded = useLoad(
    () =>
      venueId === undefined
        ? Promise.resolve(null)
        : ok(api().GET('/api/venues/{venue}', { params: { path: { venue: String(venueId) } } })).then((r) => r.data),
    [venueId],
  )
  if (loaded.error) return <Notice kind="error">{loaded.error}</Notice>
  if (venueId !== undefined && !loaded.data) return <Loading what={t('wizard.loadingVenue')} />
  return (
    <DetailsForm
      key={venueId ?? 'new'}
      venueId={venueId}
      initial={loaded.data ? detailsOf(loaded.data) : EMPTY_DETAILS}
      onVenuesChanged={onVenuesChanged}
    />
  )
}

function DetailsForm({
  venueId,
  initial,
  onVenuesChanged,
}: {
  venueId?: number
  initial: typeof EMPTY_DETAILS
  onVenuesChanged: () => void
}) {
  const f = useForm(initial)
  const [resent, setResent] = useState<string | null>(null)
  async function save(e: Event) {
    e.preventDefault()
    const v = f.values
    const body = {
      name: v.name.trim(),
      description: v.description.trim() || null,
      phone: v.phone.trim() || null,
      email: v.email.trim() || null,
      address: v.address.trim(),
      city: v.city.trim(),
      state: v.state.trim(),
      latitude: coordinate(v.latitude),
      longitude: coordinate(v.longitude),
      opening_time: v.opening_time,
      closing_time: v.closing_time,
    }
    const saved = await f.submit(async () => {
      if (venueId === undefined) {
        const created = await ok(api().POST('/api/venues', { body }))
        // The account is venue_owner from now on: refresh it, then the venue list.
        const session = currentSession()
        const me = await ok(api().GET('/api/auth/me'))
        if (session) setSession({ token: session.token, user: me.data })
        go(`/new-venue/${created.data.id}/courts`)
      } else {
        await ok(api().PATCH('/api/venues/{venue}', { params: { path: { venue: String(venueId) } }, body }))
        onVenuesChanged()
        go(`/new-venue/${venueId}/courts`)
      }
      return undefined
    })
    if (saved) setResent(null)
  }
  async function resend() {
    try {
      const answer = await ok(api().POST('/api/email/verify/resend'))
      setResent(answer.message)
    } catch (err) {
      setResent(err instanceof Error ? err.message : t('wizard.linkNotSent'))
    }
  }
  const unverified = f.error instanceof ApiError && f.error.status === 403
  return (
    <Section title={t('details.title')}>
      <form onSubmit={save} noValidate>
        {unverified ? (
          <Notice kind="error">
            <p>{(f.error as ApiError).message}</p>
            <p>{t('wizard.verifyEmail')}</p>
            <button type="button" onClick={resend}>
              {t('wizard.resend')}
            </button>
          </Notice>
        ) : (
          <Outcome error={f.error} notice={f.notice} />
        )}
        {resent && <Notice kind="info">{resent}</Notice>}
        <Field label={t('details.name')} required autoComplete="organization" {...f.bind('name')} />
        <TextAreaField label={t('details.description')} hint={t('wizard.descriptionHint')} {...f.bind('description')} />
        <div class="row">
          <Field label={t('common.phone')} type="tel" autoComplete="tel" {...f.bind('phone')} />
          <Field label={t('details.email')} type="email" autoComplete="email" {...f.bind('email')} />
        </div>
        <Field label={t('details.address')} required autoComplete="street-address" {...f.bind('address')} />
        <div class="row">
          <Field label={t('details.city')} required {...f.bind('city')} />
          <ProvinceField {...f.bindSelect('state')} />
        </div>
        <LocationMap
          latitude={f.values.latitude}
          longitude={f.values.longitude}
          onPick={(latitude, longitude) => f.setValues((v) => ({ ...v, latitude, longitude }))}
        />
        <div class="row">
          <Field
            label={t('details.latitude')}
            inputMode="decimal"
            required
            hint={t('wizard.latitudeHint')}
            {...f.bind('latitude')}
          />
          <Field
            label={t('details.longitude')}
            inputMode="decimal"
            required
            hint={t('wizard.longitudeHint')}
            {...f.bind('longitude')}
          />
        </div>
        <div class="row">
          <Field label={t('wizard.opens')} type="time" required {...f.bind('opening_time')} />
          <Field label={t('wizard.closes')} type="time" required {...f.bind('closing_time')} />
        </div>
        <div class="actions">
          <button type="submit" class="primary" disabled={f.busy}>
            {venueId === undefined ? t('wizard.create') : t('wizard.saveContinue')}
          </button>
        </div>
      </form>
    </Section>
  )
}

// --- 2. Courts -----------------------------------------------------------------------------------

type SlotMinutes = 15 | 30 | 45 | 60 | 90 | 120

function useVenueCourts(venueId: number) {
  return useLoad(
    () =>
      ok(api().GET('/api/venues/{venue}/courts', { params: { path: { venue: String(venueId) } } })).then((r) => r.data),
    [venueId],
  )
}

function CourtsStep({ venueId }: { venueId: number }) {
  const courts = useVenueCourts(venueId)
  const sports = useLoad(() => ok(api().GET('/api/sports')).then((r) => r.data), [])
  const f = useForm({ name: '', sport_id: '', price_per_hour: '', slot_minutes: '60' })
  async function add(e: Event) {
    e.preventDefault()
    const v = f.values
    await f.submit(async () => {
      const created = await ok(
        api().POST('/api/venues/{venue}/courts', {
          params: { path: { venue: String(venueId) } },
          body: {
            name: v.name.trim(),
            sport_id: v.sport_id ? Number(v.sport_id) : null,
            price_per_hour: rupees(v.price_per_hour),
            slot_minutes: Number(v.slot_minutes) as SlotMinutes,
          },
        }),
      )
      f.setValues({ ...v, name: '', price_per_hour: v.price_per_hour })
      courts.reload()
      return t('courts.added', { name: created.data.name })
    })
  }
  const count = courts.data?.length ?? 0
  return (
    <>
      <Section title={t('wizard.stepCourts')}>
        <Loaded state={courts} loading={t('schedule.loadingCourts')} empty={t('wizard.noCourts')}>
          {(list) => (
            <Table
              caption={t('wizard.courtsCaption')}
              columns={[
                t('schedule.court'),
                t('wizard.sport'),
                { label: t('courts.pricePerHour'), num: true },
                t('courts.slot'),
              ]}
            >
              {list.map((c) => (
                <tr key={c.id}>
                  <td>{c.name}</td>
                  <td>{sportName(c)}</td>
                  <td class="num">{money(c.price_per_hour)}</td>
                  <td>{t('courts.minutes', { n: c.slot_minutes })}</td>
                </tr>
              ))}
            </Table>
          )}
        </Loaded>
        <form onSubmit={add} noValidate>
          <h3>{t('courts.addCourt')}</h3>
          <Outcome error={f.error} notice={f.notice} />
          <div class="row">
            <Field label={t('wizard.courtName')} required {...f.bind('name')} />
            <SelectField
              label={t('wizard.sport')}
              options={[
                { value: '', label: t('wizard.chooseSport') },
                ...(sports.data ?? []).map((s) => ({
                  value: String(s.id),
                  label: localName({ name: s.label, name_ne: s.name_ne }),
                })),
              ]}
              {...f.bindSelect('sport_id')}
              // Without a sport the service asks for the court's type: that is this field here.
              error={f.fieldError('sport_id') ?? f.fieldError('type')}
            />
          </div>
          <div class="row">
            <Field
              label={t('courts.priceRs')}
              inputMode="decimal"
              required
              hint={t('wizard.priceHint')}
              {...f.bind('price_per_hour')}
            />
            <SelectField label={t('courts.slotLength')} options={slotOptions()} {...f.bindSelect('slot_minutes')} />
          </div>
          <div class="actions">
            <button type="submit" class="primary" disabled={f.busy}>
              {t('courts.addCourtButton')}
            </button>
          </div>
        </form>
      </Section>
      {count > 0 ? <Next venueId={venueId} to="hours" label={t('wizard.toHours')} /> : <p>{t('wizard.addOne')}</p>}
    </>
  )
}

// --- 3. Hours and prices (./hours.tsx: opening hours per weekday, then price bands within them) ---

function HoursStep({ venueId }: { venueId: number }) {
  const courts = useVenueCourts(venueId)
  const venue = useLoad(
    () => ok(api().GET('/api/venues/{venue}', { params: { path: { venue: String(venueId) } } })).then((r) => r.data),
    [venueId],
  )
  return (
    <>
      {venue.error && <Notice kind="error">{venue.error}</Notice>}
      <Loaded state={courts} loading={t('schedule.loadingCourts')} empty={t('wizard.courtFirst')}>
        {(list) =>
          venue.data ? (
            <>
              <OpeningHoursForm
                key={`hours-${list.map((c) => c.id).join('-')}`}
                courts={list}
                venue={venue.data}
                onSaved={courts.reload}
              />
              <PriceBandForm
                key={`bands-${list.map((c) => c.id).join('-')}`}
                courts={list}
                venue={venue.data}
                onSaved={courts.reload}
              />
            </>
          ) : (
            <Loading what={t('wizard.loadingVenue')} />
          )
        }
      </Loaded>
      {courts.data && <WeekSummary courts={courts.data} />}
      <Next venueId={venueId} to="photos" label={t('wizard.toPhotos')} />
    </>
  )
}

// --- 4. Photos -----------------------------------------------------------------------------------

function PhotosStep({ venueId }: { venueId: number }) {
  const venue = useLoad(
    () => ok(api().GET('/api/venues/{venue}', { params: { path: { venue: String(venueId) } } })).then((r) => r.data),
    [venueId],
  )
  return (
    <>
      {venue.error && <Notice kind="error">{venue.error}</Notice>}
      {!venue.data ? (
        !venue.error && <Loading what={t('wizard.loadingPhotos')} />
      ) : (
        <Images venue={venue.data} onChanged={venue.reload} />
      )}
      <Next venueId={venueId} to="verification" label={t('wizard.toVerification')} />
    </>
  )
}
