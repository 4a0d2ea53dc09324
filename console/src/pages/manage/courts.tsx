import { useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../../api.ts'
import {
  type Binder,
  ConfirmDialog,
  FormActions,
  intOf,
  Loaded,
  Outcome,
  rupees,
  Section,
  Table,
  TextAreaField,
  useForm,
  useLoad,
} from '../../components/forms.tsx'
import { Dialog, Field, Notice, RowAction, SelectField } from '../../components/ui.tsx'
import { money } from '../../format.ts'
import type { TabProps } from './index.tsx'

// Courts and indoor games: list (inactive ones too, marked, via include_inactive), add, edit,
// deactivate, reactivate. Deactivating takes the court or game off the board and out of booking
// (PATCH is_active false); its bookings and history stay. Reactivating (is_active true) brings it back.

type Court = Schemas['Court']
type Game = Schemas['IndoorGame']
type GameType = Game['game_type']
type SlotMinutes = 15 | 30 | 45 | 60 | 90 | 120

const SLOT_OPTIONS = ['15', '30', '45', '60', '90', '120'].map((m) => ({ value: m, label: `${m} minutes` }))
const GAME_TYPES: { value: GameType; label: string }[] = [
  { value: 'playstation', label: 'PlayStation' },
  { value: 'chess', label: 'Chess' },
  { value: 'ludo', label: 'Ludo' },
  { value: 'cards', label: 'Cards' },
  { value: 'uno', label: 'UNO' },
  { value: 'table_tennis', label: 'Table tennis' },
  { value: 'carrom', label: 'Carrom' },
  { value: 'other', label: 'Other' },
]

type Editing =
  | { kind: 'court'; item?: Court }
  | { kind: 'game'; item?: Game }
  | { kind: 'deactivate-court'; item: Court }
  | { kind: 'deactivate-game'; item: Game }

export function CourtsTab({ venue }: TabProps) {
  const venueId = String(venue.id)
  const courts = useLoad(
    () =>
      ok(
        api().GET('/api/venues/{venue}/courts', {
          params: { path: { venue: venueId }, query: { include_inactive: '1' } },
        }),
      ).then((r) => r.data),
    [venueId],
  )
  const games = useLoad(
    () =>
      ok(
        api().GET('/api/venues/{venue}/indoor-games', {
          params: { path: { venue: venueId }, query: { include_inactive: '1' } },
        }),
      ).then((r) => r.data),
    [venueId],
  )
  const [editing, setEditing] = useState<Editing | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const [failed, setFailed] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  function finished(message: string) {
    setEditing(null)
    setFailed(null)
    setDone(message)
    courts.reload()
    games.reload()
  }

  async function reactivate(kind: 'court' | 'game', id: number, name: string) {
    setBusy(true)
    setDone(null)
    setFailed(null)
    try {
      if (kind === 'court') {
        await ok(
          api().PATCH('/api/courts/{court}', { params: { path: { court: String(id) } }, body: { is_active: true } }),
        )
      } else {
        await ok(
          api().PATCH('/api/indoor-games/{indoorGame}', {
            params: { path: { indoorGame: String(id) } },
            body: { is_active: true },
          }),
        )
      }
      finished(`${name} is active again: it is back on the board and can be booked.`)
    } catch (err) {
      setFailed(`${name} could not be reactivated: ${(err as Error).message}`)
    } finally {
      setBusy(false)
    }
  }

  return (
    <div class="manage-stack">
      {done && <Notice kind="success">{done}</Notice>}
      {failed && <Notice kind="error">{failed}</Notice>}
      <ItemSection
        title="Courts"
        state={courts}
        loading="Loading courts"
        empty="No courts yet."
        caption={`Courts of ${venue.name}`}
        kindHeader="Kind"
        kindOf={(c) => c.sport?.label ?? c.type}
        busy={busy}
        onEdit={(c) => setEditing({ kind: 'court', item: c })}
        onDeactivate={(c) => setEditing({ kind: 'deactivate-court', item: c })}
        onReactivate={(c) => reactivate('court', c.id, c.name)}
        addLabel="Add a court"
        onAdd={() => setEditing({ kind: 'court' })}
      />
      <ItemSection
        title="Indoor games"
        state={games}
        loading="Loading indoor games"
        empty="No indoor games yet."
        caption={`Indoor games of ${venue.name}`}
        kindHeader="Game"
        kindOf={(g) => GAME_TYPES.find((t) => t.value === g.game_type)?.label ?? g.game_type}
        busy={busy}
        onEdit={(g) => setEditing({ kind: 'game', item: g })}
        onDeactivate={(g) => setEditing({ kind: 'deactivate-game', item: g })}
        onReactivate={(g) => reactivate('game', g.id, g.name)}
        addLabel="Add an indoor game"
        onAdd={() => setEditing({ kind: 'game' })}
      />

      {editing?.kind === 'court' && (
        <CourtForm venueId={venueId} item={editing.item} onClose={() => setEditing(null)} onDone={finished} />
      )}
      {editing?.kind === 'game' && (
        <GameForm venueId={venueId} item={editing.item} onClose={() => setEditing(null)} onDone={finished} />
      )}
      {(editing?.kind === 'deactivate-court' || editing?.kind === 'deactivate-game') && (
        <Deactivate editing={editing} onClose={() => setEditing(null)} onDone={finished} />
      )}
    </div>
  )
}

/** The courts or the indoor games of the venue: a table with edit, deactivate or reactivate, and "Add". */
function ItemSection<T extends Court | Game>({
  title,
  state,
  loading,
  empty,
  caption,
  kindHeader,
  kindOf,
  busy,
  onEdit,
  onDeactivate,
  onReactivate,
  addLabel,
  onAdd,
}: {
  title: string
  state: { data: T[] | null; error: string | null }
  loading: string
  empty: string
  caption: string
  kindHeader: string
  kindOf: (item: T) => string
  busy: boolean
  onEdit: (item: T) => void
  onDeactivate: (item: T) => void
  onReactivate: (item: T) => void
  addLabel: string
  onAdd: () => void
}) {
  return (
    <Section title={title}>
      <Loaded state={state} loading={loading} empty={empty}>
        {(rows) => (
          <Table
            caption={caption}
            columns={[
              'Name',
              kindHeader,
              'Slot',
              'Players',
              { label: 'Price per hour', num: true },
              'Status',
              'Actions',
            ]}
          >
            {rows.map((c) => (
              <tr key={c.id}>
                <td>{c.name}</td>
                <td>{kindOf(c)}</td>
                <td>{c.slot_minutes} min</td>
                <td>{c.capacity}</td>
                <td class="num">{money(c.price_per_hour)}</td>
                <td>{c.is_active ? 'Active' : <strong class="status-inactive">Inactive</strong>}</td>
                <td class="row-actions">
                  <RowAction label="Edit" of={c.name} onClick={() => onEdit(c)} />
                  {c.is_active ? (
                    <RowAction label="Deactivate" of={c.name} onClick={() => onDeactivate(c)} />
                  ) : (
                    <RowAction label="Reactivate" of={c.name} disabled={busy} onClick={() => onReactivate(c)} />
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
      <div class="actions">
        <button type="button" class="primary" onClick={onAdd}>
          {addLabel}
        </button>
      </div>
    </Section>
  )
}

interface ItemFormProps<T> {
  venueId: string
  item?: T
  onClose: () => void
  onDone: (message: string) => void
}

/** The form values a court and a game share, from the item edited (or the defaults for a new one). */
function offerValues(item: Court | Game | undefined, players: number) {
  return {
    capacity: String(item?.capacity ?? players),
    slot_minutes: String(item?.slot_minutes ?? 60),
    price_per_hour: item ? item.price_per_hour : '',
    description: item?.description ?? '',
  }
}

/** The request body fields a court and a game share. */
function offerBody(v: ReturnType<typeof offerValues>) {
  return {
    capacity: intOf(v.capacity),
    slot_minutes: Number(v.slot_minutes) as SlotMinutes,
    price_per_hour: rupees(v.price_per_hour),
    description: v.description.trim() || null,
  }
}

function CourtForm({ venueId, item: court, onClose, onDone }: ItemFormProps<Court>) {
  const f = useForm({ name: court?.name ?? '', type: court?.type ?? '', ...offerValues(court, 10) })
  const v = f.values
  async function save(e: Event) {
    e.preventDefault()
    await f.submit(async () => {
      const body = { name: v.name.trim(), ...(v.type.trim() ? { type: v.type.trim() } : {}), ...offerBody(v) }
      const saved = court
        ? await ok(api().PATCH('/api/courts/{court}', { params: { path: { court: String(court.id) } }, body }))
        : await ok(api().POST('/api/venues/{venue}/courts', { params: { path: { venue: venueId } }, body }))
      onDone(`${saved.data.name} is ${court ? 'saved' : 'added'}.`)
      return undefined
    })
  }
  return (
    <Dialog title={court ? `Edit ${court.name}` : 'Add a court'} onClose={onClose}>
      <form onSubmit={save}>
        <Outcome error={f.error} notice={f.notice} />
        <Field label="Name" {...f.bind('name')} required />
        <Field label="Kind" hint="For example futsal, basketball, cricket" {...f.bind('type')} />
        <OfferFields f={f} submit={court ? 'Save court' : 'Add court'} />
      </form>
    </Dialog>
  )
}

function GameForm({ venueId, item: game, onClose, onDone }: ItemFormProps<Game>) {
  const f = useForm({ name: game?.name ?? '', game_type: game?.game_type ?? 'playstation', ...offerValues(game, 2) })
  const v = f.values
  async function save(e: Event) {
    e.preventDefault()
    await f.submit(async () => {
      const body = { name: v.name.trim(), game_type: v.game_type as GameType, ...offerBody(v) }
      const saved = game
        ? await ok(
            api().PATCH('/api/indoor-games/{indoorGame}', { params: { path: { indoorGame: String(game.id) } }, body }),
          )
        : await ok(api().POST('/api/venues/{venue}/indoor-games', { params: { path: { venue: venueId } }, body }))
      onDone(`${saved.data.name} is ${game ? 'saved' : 'added'}.`)
      return undefined
    })
  }
  return (
    <Dialog title={game ? `Edit ${game.name}` : 'Add an indoor game'} onClose={onClose}>
      <form onSubmit={save}>
        <Outcome error={f.error} notice={f.notice} />
        <Field label="Name" {...f.bind('name')} required />
        <SelectField label="Game" options={GAME_TYPES} {...f.bindSelect('game_type')} />
        <OfferFields f={f} submit={game ? 'Save game' : 'Add game'} />
      </form>
    </Dialog>
  )
}

/** Price, slot length, players and description, shared by the court and the game form, and the form's buttons. */
function OfferFields({
  f,
  submit,
}: {
  f: Binder<'price_per_hour' | 'slot_minutes' | 'capacity' | 'description'>
  submit: string
}) {
  return (
    <>
      <div class="row">
        <Field label="Price per hour (Rs)" inputMode="decimal" {...f.bind('price_per_hour')} required />
        <SelectField label="Slot length" options={SLOT_OPTIONS} {...f.bindSelect('slot_minutes')} />
        <Field label="Players" type="number" min={1} {...f.bind('capacity')} />
      </div>
      <TextAreaField label="Description" {...f.bind('description')} />
      <FormActions submit={submit} busy={f.busy} />
    </>
  )
}

function Deactivate({
  editing,
  onClose,
  onDone,
}: {
  editing: Extract<Editing, { kind: 'deactivate-court' | 'deactivate-game' }>
  onClose: () => void
  onDone: (message: string) => void
}) {
  const name = editing.item.name
  async function deactivate() {
    if (editing.kind === 'deactivate-court') {
      await ok(
        api().PATCH('/api/courts/{court}', {
          params: { path: { court: String(editing.item.id) } },
          body: { is_active: false },
        }),
      )
    } else {
      await ok(
        api().PATCH('/api/indoor-games/{indoorGame}', {
          params: { path: { indoorGame: String(editing.item.id) } },
          body: { is_active: false },
        }),
      )
    }
  }
  return (
    <ConfirmDialog
      title={`Deactivate ${name}?`}
      confirm="Deactivate"
      action={deactivate}
      onClose={onClose}
      onDone={() => onDone(`${name} is deactivated: it is off the board and cannot be booked.`)}
    >
      <p>
        {name} will leave the day board and customers will no longer be able to book it. Existing bookings are kept.
      </p>
    </ConfirmDialog>
  )
}
