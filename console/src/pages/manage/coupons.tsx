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
import { ScrollBox } from '../../components/scroll.tsx'
import { Field, RowAction, SelectField } from '../../components/ui.tsx'
import { money } from '../../format.ts'
import { count, digits, localName, t } from '../../i18n/index.ts'
import { dayText } from '../../i18n/moments.ts'
import type { TabProps } from './index.tsx'

// Coupons of the venue: add, switch on and off, delete an unused one (a used coupon answers 409 and
// is switched off instead).

type Coupon = Schemas['Coupon']
const types = () => [
  { value: 'percent', label: t('coupons.percentOff') },
  { value: 'fixed', label: t('coupons.fixedOff') },
]

function discountOf(c: Coupon): string {
  return c.type === 'percent' ? digits(`${Number(c.value)} %`) : money(c.value)
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
      return c.is_active ? t('coupons.switchedOff', { code: c.code }) : t('coupons.switchedOn', { code: c.code })
    })
  }

  return (
    <div class="manage-stack">
      <Section title={t('manage.coupons')}>
        <Outcome error={list.error} notice={list.notice} />
        <Loaded state={coupons} loading={t('coupons.loading')} empty={t('coupons.none')}>
          {(rows) => (
            <ScrollBox label={t('coupons.scroll', { venue: localName(venue) })}>
              <Table
                caption={t('coupons.caption', { venue: localName(venue) })}
                columns={[
                  t('coupons.code'),
                  t('coupons.discount'),
                  t('coupons.minCap'),
                  t('coupons.valid'),
                  t('coupons.used'),
                  t('coupons.status'),
                  t('coupons.actions'),
                ]}
              >
                {rows.map((c) => (
                  <tr key={c.id}>
                    <td>
                      <strong>{c.code}</strong>
                    </td>
                    <td>{discountOf(c)}</td>
                    <td>
                      {c.min_amount ? t('coupons.from', { amount: money(c.min_amount) }) : t('coupons.anyAmount')}
                      {c.max_discount ? t('coupons.atMost', { amount: money(c.max_discount) }) : ''}
                    </td>
                    <td>
                      {c.starts_at ? dayText(c.starts_at) : t('coupons.now')} –{' '}
                      {c.expires_at ? dayText(c.expires_at) : t('coupons.noEnd')}
                    </td>
                    <td>
                      {c.usage_limit === null
                        ? count(c.used_count)
                        : t('coupons.usedOf', { used: c.used_count, limit: c.usage_limit })}
                    </td>
                    <td>{c.is_active ? t('coupons.on') : t('coupons.off')}</td>
                    <td class="row-actions">
                      <RowAction
                        label={c.is_active ? t('coupons.switchOff') : t('coupons.switchOn')}
                        of={c.code}
                        disabled={list.busy}
                        onClick={() => toggle(c)}
                      />
                      <RowAction label={t('coupons.delete')} of={c.code} onClick={() => setDeleting(c)} />
                    </td>
                  </tr>
                ))}
              </Table>
            </ScrollBox>
          )}
        </Loaded>
      </Section>
      <AddCoupon venueId={venueId} onAdded={coupons.reload} />
      {deleting && (
        <ConfirmDialog
          title={t('coupons.deleteTitle', { code: deleting.code })}
          confirm={t('coupons.deleteConfirm')}
          action={() =>
            ok(api().DELETE('/api/coupons/{coupon}', { params: { path: { coupon: String(deleting.id) } } }))
          }
          onClose={() => setDeleting(null)}
          onDone={() => {
            setDeleting(null)
            list.setNotice(t('coupons.deleted', { code: deleting.code }))
            coupons.reload()
          }}
        >
          <p>{t('coupons.deleteExplain')}</p>
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
      return t('coupons.added', { code: saved.data.code })
    })
  }
  return (
    <Section title={t('coupons.addTitle')}>
      <form onSubmit={add}>
        <Outcome error={f.error} notice={f.notice} />
        <div class="row">
          <Field label={t('coupons.code')} hint={t('coupons.codeHint')} {...f.bind('code')} required />
          <SelectField label={t('coupons.kind')} options={types()} {...f.bindSelect('type')} />
          <Field
            label={v.type === 'percent' ? t('coupons.percentOff') : t('coupons.amountOff')}
            inputMode="decimal"
            {...f.bind('value')}
            required
          />
        </div>
        <div class="row">
          <Field label={t('coupons.minAmount')} inputMode="decimal" {...f.bind('min_amount')} />
          <Field label={t('coupons.maxDiscount')} inputMode="decimal" {...f.bind('max_discount')} />
        </div>
        <div class="row">
          <Field label={t('coupons.validFrom')} type="date" {...f.bind('starts_at')} />
          <Field label={t('coupons.validUntil')} type="date" {...f.bind('expires_at')} />
          <Field label={t('coupons.usageLimit')} type="number" min={1} {...f.bind('usage_limit')} />
          <Field label={t('coupons.perUser')} type="number" min={1} {...f.bind('per_user_limit')} />
        </div>
        <div class="actions">
          <button type="submit" class="primary" disabled={f.busy}>
            {t('coupons.add')}
          </button>
        </div>
      </form>
    </Section>
  )
}
