import { useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../../api.ts'
import {
  ConfirmDialog,
  intOf,
  Loaded,
  Outcome,
  orNull,
  rupees,
  Section,
  Table,
  useForm,
  useLoad,
} from '../../components/forms.tsx'
import { Field, RowAction, SelectField } from '../../components/ui.tsx'
import { money } from '../../format.ts'
import type { TabProps } from './index.tsx'

// Coupons of the venue: add, switch on and off, delete an unused one (a used coupon answers 409 and
// is switched off instead).

type Coupon = Schemas['Coupon']
const TYPES = [
  { value: 'percent', label: 'Percent off' },
  { value: 'fixed', label: 'Fixed amount off (Rs)' },
]

function discountOf(c: Coupon): string {
  return c.type === 'percent' ? `${Number(c.value)} %` : money(c.value)
}

export function CouponsTab({ venue }: TabProps) {
  const venueId = String(venue.id)
  const coupons = useLoad(
    () => ok(api().GET('/api/venues/{venue}/coupons', { params: { path: { venue: venueId } } })).then((r) => r.data),
    [venueId],
  )
  const list = useForm({})
  const [deleting, setDeleting] = useState<Coupon | null>(null)

  async function toggle(c: Coupon) {
    await list.submit(async () => {
      await ok(
        api().PUT('/api/coupons/{coupon}', {
          params: { path: { coupon: String(c.id) } },
          body: { is_active: !c.is_active },
        }),
      )
      coupons.reload()
      return c.is_active ? `${c.code} is switched off.` : `${c.code} is switched on.`
    })
  }

  return (
    <div class="manage-stack">
      <Section title="Coupons">
        <Outcome error={list.error} notice={list.notice} />
        <Loaded state={coupons} loading="Loading coupons" empty="No coupons yet.">
          {(rows) => (
            <Table
              caption={`Coupons of ${venue.name}`}
              columns={['Code', 'Discount', 'Minimum / cap', 'Valid', 'Used', 'Status', 'Actions']}
            >
              {rows.map((c) => (
                <tr key={c.id}>
                  <td>
                    <strong>{c.code}</strong>
                  </td>
                  <td>{discountOf(c)}</td>
                  <td>
                    {c.min_amount ? `from ${money(c.min_amount)}` : 'any amount'}
                    {c.max_discount ? `, at most ${money(c.max_discount)}` : ''}
                  </td>
                  <td>
                    {c.starts_at ? c.starts_at.slice(0, 10) : 'now'} –{' '}
                    {c.expires_at ? c.expires_at.slice(0, 10) : 'no end'}
                  </td>
                  <td>
                    {c.used_count}
                    {c.usage_limit !== null && ` of ${c.usage_limit}`}
                  </td>
                  <td>{c.is_active ? 'On' : 'Off'}</td>
                  <td class="row-actions">
                    <RowAction
                      label={c.is_active ? 'Switch off' : 'Switch on'}
                      of={c.code}
                      disabled={list.busy}
                      onClick={() => toggle(c)}
                    />
                    <RowAction label="Delete" of={c.code} onClick={() => setDeleting(c)} />
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </Loaded>
      </Section>
      <AddCoupon venueId={venueId} onAdded={coupons.reload} />
      {deleting && (
        <ConfirmDialog
          title={`Delete ${deleting.code}?`}
          confirm="Delete coupon"
          action={() =>
            ok(api().DELETE('/api/coupons/{coupon}', { params: { path: { coupon: String(deleting.id) } } }))
          }
          onClose={() => setDeleting(null)}
          onDone={() => {
            setDeleting(null)
            list.setNotice(`${deleting.code} is deleted.`)
            coupons.reload()
          }}
        >
          <p>Only a coupon nobody has used can be deleted; switch a used one off instead.</p>
        </ConfirmDialog>
      )}
    </div>
  )
}

const EMPTY = {
  code: '',
  type: 'percent',
  value: '',
  max_discount: '',
  min_amount: '',
  starts_at: '',
  expires_at: '',
  usage_limit: '',
  per_user_limit: '',
}

function AddCoupon({ venueId, onAdded }: { venueId: string; onAdded: () => void }) {
  const f = useForm(EMPTY)
  const v = f.values
  async function add(e: Event) {
    e.preventDefault()
    await f.submit(async () => {
      const saved = await ok(
        api().POST('/api/venues/{venue}/coupons', {
          params: { path: { venue: venueId } },
          body: {
            code: v.code.trim(),
            type: v.type as Coupon['type'],
            value: rupees(v.value),
            max_discount: orNull(rupees(v.max_discount)),
            min_amount: orNull(rupees(v.min_amount)),
            starts_at: orNull(v.starts_at),
            expires_at: orNull(v.expires_at),
            usage_limit: intOf(v.usage_limit) ?? null,
            per_user_limit: intOf(v.per_user_limit) ?? null,
          },
        }),
      )
      f.setValues(EMPTY)
      onAdded()
      return `Coupon ${saved.data.code} is added.`
    })
  }
  return (
    <Section title="Add a coupon">
      <form onSubmit={add}>
        <Outcome error={f.error} notice={f.notice} />
        <div class="row">
          <Field label="Code" hint="Letters, digits, - and _" {...f.bind('code')} required />
          <SelectField label="Kind" options={TYPES} {...f.bindSelect('type')} />
          <Field
            label={v.type === 'percent' ? 'Percent off' : 'Amount off (Rs)'}
            inputMode="decimal"
            {...f.bind('value')}
            required
          />
        </div>
        <div class="row">
          <Field label="Minimum booking amount (Rs)" inputMode="decimal" {...f.bind('min_amount')} />
          <Field label="Largest discount (Rs)" inputMode="decimal" {...f.bind('max_discount')} />
        </div>
        <div class="row">
          <Field label="Valid from" type="date" {...f.bind('starts_at')} />
          <Field label="Valid until" type="date" {...f.bind('expires_at')} />
          <Field label="Uses in all" type="number" min={1} {...f.bind('usage_limit')} />
          <Field label="Uses per customer" type="number" min={1} {...f.bind('per_user_limit')} />
        </div>
        <div class="actions">
          <button type="submit" class="primary" disabled={f.busy}>
            Add coupon
          </button>
        </div>
      </form>
    </Section>
  )
}
