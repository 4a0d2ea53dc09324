import { useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../../api.ts'
import { slotOptions, sportName } from '../../components/court-week.tsx'
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
import { ScrollBox } from '../../components/scroll.tsx'
import { Dialog, Field, Notice, RowAction, SelectField } from '../../components/ui.tsx'
import { money } from '../../format.ts'
import { digits, localName, type MessageKey, t } from '../../i18n/index.ts'
import type { TabProps } from './index.tsx'

// Courts and indoor games: list (inactive ones too, marked, via include_inactive), add, edit,
// deactivate, reactivate. Deactivating takes the court or game off the board and out of booking
// (PATCH is_active false); its bookings and history stay. Reactivating (is_active true) brings it back.
// Words from the console's catalogue (issue 50); names as the venue typed them.

type Court = Schemas['Court']
type Game = Schemas['IndoorGame']
type GameType = Game['game_type']
type SlotMinutes = 15 | 30 | 45 | 60 | 90 | 120

const GAME_TYPES: GameType[] = ['playstation', 'chess', 'ludo', 'cards', 'uno', 'table_tennis', 'carrom', 'other']
/** An indoor game's kind in the language shown ("Table tennis" / "टेबल टेनिस"). */
const gameName = (type: GameType) => t(`game.${type}` as MessageKey)
const gameOptions = () => GAME_TYPES.map((value) => ({ value, label: gameName(value) }))

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
      finished(t('courts.reactivated', { name }))
    } catch (err) {
      setFailed(t('courts.notReactivated', { name, error: (err as Error).message }))
    } finally {
      setBusy(false)
    }
  }

  return (
    <div class="manage-stack">
      {done && <Notice kind="success">{done}</Notice>}
      {failed && <Notice kind="error">{failed}</Notice>}
      <ItemSection
        title={t('wizard.stepCourts')}
        state={courts}
        loading={t('schedule.loadingCourts')}
        empty={t('courts.none')}
        caption={t('courts.caption', { venue: localName(venue) })}
        kindHeader={t('courts.kind')}
        kindOf={sportName}
        busy={busy}
        onEdit={(c) => setEditing({ kind: 'court', item: c })}
        onDeactivate={(c) => setEditing({ kind: 'deactivate-court', item: c })}
        onReactivate={(c) => reactivate('court', c.id, c.name)}
        addLabel={t('courts.addCourt')}
        onAdd={() => setEditing({ kind: 'court' })}
      />
      <ItemSection
        title={t('courts.games')}
        state={games}
        loading={t('courts.loadingGames')}
        empty={t('courts.noGames')}
        caption={t('courts.gamesCaption', { venue: localName(venue) })}
        kindHeader={t('courts.game')}
        kindOf={(g) => (GAME_TYPES.includes(g.game_type) ? gameName(g.game_type) : g.game_type)}
        busy={busy}
        onEdit={(g) => setEditing({ kind: 'game', item: g })}
        onDeactivate={(g) => setEditing({ kind: 'deactivate-game', item: g })}
        onReactivate={(g) => reactivate('game', g.id, g.name)}
        addLabel={t('courts.addGame')}
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
          <ScrollBox label={caption}>
            <Table
              caption={caption}
              columns={[
                t('holidays.name'),
                kindHeader,
                t('courts.slot'),
                t('courts.players'),
                { label: t('courts.pricePerHour'), num: true },
                t('common.status'),
                t('cashBack.actions'),
              ]}
            >
              {rows.map((c) => (
                <tr key={c.id}>
                  <td>{c.name}</td>
                  <td>{kindOf(c)}</td>
                  <td>{t('courts.min', { n: c.slot_minutes })}</td>
                  <td>{digits(String(c.capacity))}</td>
                  <td class="num">{money(c.price_per_hour)}</td>
                  <td>
                    {c.is_active ? t('courts.active') : <strong class="status-inactive">{t('courts.inactive')}</strong>}
                  </td>
                  <td class="row-actions">
                    <RowAction label={t('courts.edit')} of={c.name} onClick={() => onEdit(c)} />
                    {c.is_active ? (
                      <RowAction label={t('courts.deactivate')} of={c.name} onClick={() => onDeactivate(c)} />
                    ) : (
                      <RowAction
                        label={t('courts.reactivate')}
                        of={c.name}
                        disabled={busy}
                        onClick={() => onReactivate(c)}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </Table>
          </ScrollBox>
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
      onDone(t(court ? 'courts.saved' : 'courts.added', { name: saved.data.name }))
      return undefined
    })
  }
  return (
    <Dialog title={court ? t('courts.editTitle', { name: court.name }) : t('courts.addCourt')} onClose={onClose}>
      <form onSubmit={save}>
        <Outcome error={f.error} notice={f.notice} />
        <Field label={t('holidays.name')} {...f.bind('name')} required />
        <Field label={t('courts.kind')} hint={t('courts.kindHint')} {...f.bind('type')} />
        <OfferFields f={f} submit={court ? t('courts.saveCourt') : t('courts.addCourtButton')} />
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
      onDone(t(game ? 'courts.saved' : 'courts.added', { name: saved.data.name }))
      return undefined
    })
  }
  return (
    <Dialog title={game ? t('courts.editTitle', { name: game.name }) : t('courts.addGame')} onClose={onClose}>
      <form onSubmit={save}>
        <Outcome error={f.error} notice={f.notice} />
        <Field label={t('holidays.name')} {...f.bind('name')} required />
        <SelectField label={t('courts.game')} options={gameOptions()} {...f.bindSelect('game_type')} />
        <OfferFields f={f} submit={game ? t('courts.saveGame') : t('courts.addGameButton')} />
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
        <Field label={t('courts.priceRs')} inputMode="decimal" {...f.bind('price_per_hour')} required />
        <SelectField label={t('courts.slotLength')} options={slotOptions()} {...f.bindSelect('slot_minutes')} />
        <Field label={t('courts.players')} type="number" min={1} {...f.bind('capacity')} />
      </div>
      <TextAreaField label={t('details.description')} {...f.bind('description')} />
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
      title={t('courts.deactivateTitle', { name })}
      confirm={t('courts.deactivate')}
      action={deactivate}
      onClose={onClose}
      onDone={() => onDone(t('courts.deactivated', { name }))}
    >
      <p>{t('courts.deactivateExplain', { name })}</p>
    </ConfirmDialog>
  )
}
