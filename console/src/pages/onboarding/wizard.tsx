import { useEffect, useRef, useState } from 'preact/hooks'
import { ApiError, api, currentSession, ok, type Schemas, setSession } from '../../api.ts'
import { WeekSummary } from '../../components/court-week.tsx'
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

const STEPS = [
  { key: 'details', label: 'Details' },
  { key: 'courts', label: 'Courts' },
  { key: 'hours', label: 'Hours and prices' },
  { key: 'photos', label: 'Photos' },
  { key: 'verification', label: 'Verification' },
] as const
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
    return <Loading what="Loading your venues" />
  }
  if (venueId !== undefined && !mine) {
    return (
      <section>
        <h1>New venue</h1>
        <Notice kind="error">This venue is not one of yours.</Notice>
      </section>
    )
  }
  if (mine && mine.my_role !== 'owner' && mine.my_role !== 'super_admin') {
    return (
      <section>
        <h1>Set up {mine.name}</h1>
        <Notice kind="error">Setting up a venue is for its owner. Ask the owner of {mine.name} for changes.</Notice>
      </section>
    )
  }
  return (
    <section class="wizard">
      <h1>{mine ? `Set up ${mine.name}` : 'Add your venue'}</h1>
      <nav aria-label="Steps">
        <ol class="steps">
          {STEPS.map((s, i) => (
            <li key={s.key} class={i === index ? 'current' : i < index ? 'done' : undefined}>
              {venueId === undefined || i === index ? (
                <span aria-current={i === index ? 'step' : undefined}>
                  {i + 1}. {s.label}
                </span>
              ) : (
                <a href={href(`/new-venue/${venueId}/${s.key}`)}>
                  {i + 1}. {s.label}
                </a>
              )}
            </li>
          ))}
        </ol>
      </nav>
      <p class="muted">
        Step {index + 1} of {STEPS.length}. Each step is saved when you continue; you can come back to any step later.
      </p>
      {current === 'details' && <DetailsStep venueId={venueId} onVenuesChanged={onVenuesChanged} />}
      {venueId !== undefined && current === 'courts' && <CourtsStep venueId={venueId} />}
      {venueId !== undefined && current === 'hours' && <HoursStep venueId={venueId} />}
      {venueId !== undefined && current === 'photos' && <PhotosStep venueId={venueId} />}
      {mine && current === 'verification' && (
        <>
          <VerificationTab venue={mine} onVenueChanged={onVenuesChanged} />
          <p class="actions">
            <a class="button" href={href(`/venues/${mine.id}/board`)}>
              Open the day board
            </a>
            <a class="button" href={href(`/venues/${mine.id}/manage`)}>
              Manage venue
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
  if (venueId !== undefined && !loaded.data) return <Loading what="Loading the venue" />
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
      setResent(err instanceof Error ? err.message : 'The link could not be sent.')
    }
  }
  const unverified = f.error instanceof ApiError && f.error.status === 403
  return (
    <Section title="Venue details">
      <form onSubmit={save} noValidate>
        {unverified ? (
          <Notice kind="error">
            <p>{(f.error as ApiError).message}</p>
            <p>
              Open the link in the email we sent when you signed up, then come back and continue. No email? Send it
              again.
            </p>
            <button type="button" onClick={resend}>
              Send the verification email again
            </button>
          </Notice>
        ) : (
          <Outcome error={f.error} notice={f.notice} />
        )}
        {resent && <Notice kind="info">{resent}</Notice>}
        <Field label="Venue name" required autoComplete="organization" {...f.bind('name')} />
        <TextAreaField
          label="Description"
          hint="What players should know: surface, parking, changing rooms."
          {...f.bind('description')}
        />
        <div class="row">
          <Field label="Phone" type="tel" autoComplete="tel" {...f.bind('phone')} />
          <Field label="Email" type="email" autoComplete="email" {...f.bind('email')} />
        </div>
        <Field label="Address" required autoComplete="street-address" {...f.bind('address')} />
        <div class="row">
          <Field label="City" required {...f.bind('city')} />
          <ProvinceField {...f.bindSelect('state')} />
        </div>
        <LocationMap
          latitude={f.values.latitude}
          longitude={f.values.longitude}
          onPick={(latitude, longitude) => f.setValues((v) => ({ ...v, latitude, longitude }))}
        />
        <div class="row">
          <Field
            label="Latitude"
            inputMode="decimal"
            required
            hint="Set by the map, or typed (e.g. 27.7172)."
            {...f.bind('latitude')}
          />
          <Field
            label="Longitude"
            inputMode="decimal"
            required
            hint="The second number (e.g. 85.3240)."
            {...f.bind('longitude')}
          />
        </div>
        <div class="row">
          <Field label="Opens" type="time" required {...f.bind('opening_time')} />
          <Field label="Closes" type="time" required {...f.bind('closing_time')} />
        </div>
        <div class="actions">
          <button type="submit" class="primary" disabled={f.busy}>
            {venueId === undefined ? 'Create venue and continue' : 'Save and continue'}
          </button>
        </div>
      </form>
    </Section>
  )
}

// --- 2. Courts -----------------------------------------------------------------------------------

/** Slot lengths in order; 60 minutes is the default (issue 51). */
const SLOT_OPTIONS = ['15', '30', '45', '60', '90', '120'].map((m) => ({ value: m, label: `${m} minutes` }))
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
      return `${created.data.name} is added.`
    })
  }
  const count = courts.data?.length ?? 0
  return (
    <>
      <Section title="Courts">
        <Loaded state={courts} loading="Loading courts" empty="No courts yet. Add the first one below.">
          {(list) => (
            <Table
              caption="The venue's courts"
              columns={['Court', 'Sport', { label: 'Price per hour', num: true }, 'Slot']}
            >
              {list.map((c) => (
                <tr key={c.id}>
                  <td>{c.name}</td>
                  <td>{c.sport?.label ?? c.type}</td>
                  <td class="num">{money(c.price_per_hour)}</td>
                  <td>{c.slot_minutes} minutes</td>
                </tr>
              ))}
            </Table>
          )}
        </Loaded>
        <form onSubmit={add} noValidate>
          <h3>Add a court</h3>
          <Outcome error={f.error} notice={f.notice} />
          <div class="row">
            <Field label="Court name" required {...f.bind('name')} />
            <SelectField
              label="Sport"
              options={[
                { value: '', label: 'Choose a sport' },
                ...(sports.data ?? []).map((s) => ({ value: String(s.id), label: s.label })),
              ]}
              {...f.bindSelect('sport_id')}
              // Without a sport the service asks for the court's type: that is this field here.
              error={f.fieldError('sport_id') ?? f.fieldError('type')}
            />
          </div>
          <div class="row">
            <Field
              label="Price per hour (Rs)"
              inputMode="decimal"
              required
              hint="The base price; the next step can set prices by day and time."
              {...f.bind('price_per_hour')}
            />
            <SelectField label="Slot length" options={SLOT_OPTIONS} {...f.bindSelect('slot_minutes')} />
          </div>
          <div class="actions">
            <button type="submit" class="primary" disabled={f.busy}>
              Add court
            </button>
          </div>
        </form>
      </Section>
      {count > 0 ? (
        <Next venueId={venueId} to="hours" label="Continue to hours and prices" />
      ) : (
        <p>Add at least one court to continue.</p>
      )}
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
      <Loaded state={courts} loading="Loading courts" empty="Add a court first.">
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
            <Loading what="Loading the venue" />
          )
        }
      </Loaded>
      {courts.data && <WeekSummary courts={courts.data} />}
      <Next venueId={venueId} to="photos" label="Continue to photos" />
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
        !venue.error && <Loading what="Loading photos" />
      ) : (
        <Images venue={venue.data} onChanged={venue.reload} />
      )}
      <Next venueId={venueId} to="verification" label="Continue to verification" />
    </>
  )
}
