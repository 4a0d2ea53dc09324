import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  type DaySetup,
  daySlots,
  type PriceRuleInput,
  priceRange,
  pricer,
  slotAmount,
  slotsInRange,
} from '../../src/modules/availability/slots.ts'

// 2026-11-23 is a Monday (day_of_week 1).
const MONDAY = '2026-11-23'

function setup(over: Partial<DaySetup> = {}): DaySetup {
  return {
    date: MONDAY,
    slotMinutes: 60,
    openTime: '06:00:00',
    closeTime: '22:00:00',
    isClosed: false,
    isHoliday: false,
    pricePerHour: 100000,
    rules: [],
    ...over,
  }
}

function rule(over: Partial<PriceRuleInput>): PriceRuleInput {
  return {
    type: 'standard',
    day_of_week: null,
    start_time: '00:00:00',
    end_time: '23:59:00',
    price_per_hour: 0,
    is_active: true,
    ...over,
  }
}

test('an hourly grid from open to close at the base price', () => {
  const slots = daySlots(setup())
  assert.equal(slots.length, 16)
  assert.deepEqual(slots[0], { start: 360, end: 420, start_time: '06:00', end_time: '07:00', price_per_hour: 100000 })
  assert.equal(slots[15].start_time, '21:00')
  assert.equal(slots[15].end_time, '22:00')
})

test('90-minute slots drop a trailing remainder shorter than a slot', () => {
  const slots = daySlots(setup({ slotMinutes: 90, openTime: '06:00:00', closeTime: '10:00:00' }))
  assert.deepEqual(
    slots.map((s) => `${s.start_time}-${s.end_time}`),
    ['06:00-07:30', '07:30-09:00'],
  )
  // 90 minutes at 1,000.00/h = 1,500.00; two slots = 3,000.00.
  assert.equal(priceRange(setup({ slotMinutes: 90, closeTime: '10:00:00' }), '06:00', '09:00'), 300000)
  // 09:00 is not a slot boundary on this grid; 09:00-10:00 is past the last slot.
  assert.equal(priceRange(setup({ slotMinutes: 90, closeTime: '10:00:00' }), '06:00', '08:00'), null)
  assert.equal(priceRange(setup({ slotMinutes: 90, closeTime: '10:00:00' }), '09:00', '10:00'), null)
})

test('the schedule entry times are the grid (the caller passes them instead of venue hours)', () => {
  const venueHours = daySlots(setup())
  const scheduled = daySlots(setup({ openTime: '08:30:00', closeTime: '11:30:00' }))
  assert.equal(venueHours[0].start_time, '06:00')
  assert.deepEqual(
    scheduled.map((s) => s.start_time),
    ['08:30', '09:30', '10:30'],
  )
  assert.equal(priceRange(setup({ openTime: '08:30:00', closeTime: '11:30:00' }), '08:00', '09:00'), null)
  assert.equal(priceRange(setup({ openTime: '08:30:00', closeTime: '11:30:00' }), '08:30', '10:30'), 200000)
})

test('a closed day has no slots and nothing can be priced', () => {
  assert.deepEqual(daySlots(setup({ isClosed: true })), [])
  assert.equal(priceRange(setup({ isClosed: true }), '06:00', '07:00'), null)
})

test('an overnight (close before open) or empty day yields no slots', () => {
  assert.deepEqual(daySlots(setup({ openTime: '20:00:00', closeTime: '02:00:00' })), [])
  assert.deepEqual(daySlots(setup({ openTime: '20:00:00', closeTime: '20:00:00' })), [])
  assert.equal(priceRange(setup({ openTime: '20:00:00', closeTime: '02:00:00' }), '20:00', '21:00'), null)
})

test('a rule covers a slot when the slot start lies in [start_time, end_time)', () => {
  const s = setup({
    slotMinutes: 60,
    rules: [rule({ type: 'peak', start_time: '17:30:00', end_time: '20:00:00', price_per_hour: 200000 })],
  })
  const byStart = new Map(daySlots(s).map((x) => [x.start_time, x.price_per_hour]))
  assert.equal(byStart.get('17:00'), 100000, 'the rule covers only the second half of 17:00-18:00')
  assert.equal(byStart.get('18:00'), 200000)
  assert.equal(byStart.get('19:00'), 200000)
  assert.equal(byStart.get('20:00'), 100000, 'end_time is exclusive')
  // 17:00-20:00 = 1,000 + 2,000 + 2,000
  assert.equal(priceRange(s, '17:00', '20:00'), 500000)
  // With 30-minute slots the 17:30 slot is covered.
  const half = { ...s, slotMinutes: 30 }
  assert.equal(pricer(half)(17 * 60), 100000)
  assert.equal(pricer(half)(17 * 60 + 30), 200000)
  assert.equal(priceRange(half, '17:00', '18:00'), 50000 + 100000)
})

test('a weekday rule beats an every-day rule; peak/off_peak beat standard', () => {
  const everyDayPeak = rule({
    id: 1,
    type: 'peak',
    start_time: '18:00:00',
    end_time: '22:00:00',
    price_per_hour: 200000,
  })
  const mondayStandard = rule({
    id: 2,
    type: 'standard',
    day_of_week: 1,
    start_time: '18:00:00',
    end_time: '22:00:00',
    price_per_hour: 120000,
  })
  const everyDayStandard = rule({ id: 3, type: 'standard', price_per_hour: 90000 })
  const s = setup({ rules: [everyDayPeak, mondayStandard, everyDayStandard] })
  assert.equal(pricer(s)(19 * 60), 120000, 'Monday rule wins over the every-day peak on a Monday')
  assert.equal(pricer(s)(10 * 60), 90000, 'every-day standard covers the morning')
  // On a Tuesday the Monday rule does not apply: the every-day peak beats the every-day standard.
  assert.equal(pricer({ ...s, date: '2026-11-24' })(19 * 60), 200000)
  // A Monday off_peak beats the Monday standard.
  const offPeak = rule({
    id: 4,
    type: 'off_peak',
    day_of_week: 1,
    start_time: '18:00:00',
    end_time: '19:30:00',
    price_per_hour: 80000,
  })
  assert.equal(pricer({ ...s, rules: [...s.rules, offPeak] })(19 * 60), 80000)
  assert.equal(pricer({ ...s, rules: [...s.rules, offPeak] })(20 * 60), 120000)
})

test('equally specific rules resolve to the most recently created (highest id)', () => {
  const a = rule({ id: 7, type: 'peak', day_of_week: 1, price_per_hour: 200000 })
  const b = rule({ id: 9, type: 'off_peak', day_of_week: 1, price_per_hour: 50000 })
  assert.equal(pricer(setup({ rules: [a, b] }))(600), 50000)
  assert.equal(pricer(setup({ rules: [b, a] }))(600), 50000)
})

test('inactive rules are ignored', () => {
  const s = setup({ rules: [rule({ type: 'peak', price_per_hour: 200000, is_active: false })] })
  assert.equal(pricer(s)(600), 100000)
})

test('holiday rules apply only on venue holidays, and win there', () => {
  const holiday = rule({ id: 1, type: 'holiday', start_time: '06:00:00', end_time: '12:00:00', price_per_hour: 300000 })
  const peak = rule({
    id: 2,
    type: 'peak',
    day_of_week: 1,
    start_time: '06:00:00',
    end_time: '22:00:00',
    price_per_hour: 200000,
  })
  const normal = setup({ rules: [holiday, peak] })
  assert.equal(pricer(normal)(8 * 60), 200000, 'not a holiday: the holiday rule is ignored')
  const hol = { ...normal, isHoliday: true }
  assert.equal(pricer(hol)(8 * 60), 300000, 'holiday rule beats even a weekday peak rule')
  assert.equal(pricer(hol)(13 * 60), 200000, 'outside the holiday rule: normal resolution')
  assert.equal(pricer({ ...hol, rules: [] })(8 * 60), 100000, 'no rules: the base price')
})

test('amounts round half up per slot', () => {
  assert.equal(slotAmount(100001, 30), 50001) // 50000.5 -> 50001
  assert.equal(slotAmount(100003, 15), 25001) // 25000.75 -> 25001
  assert.equal(slotAmount(100001, 60), 100001)
  assert.equal(slotAmount(100002, 45), 75002) // 75001.5 -> 75002
  const s = setup({ slotMinutes: 30, pricePerHour: 100001 })
  assert.equal(priceRange(s, '06:00', '07:00'), 100002, 'two slots of 50000.5, each rounded')
})

test('ranges must start and end on the grid, inside open hours', () => {
  const s = setup({ slotMinutes: 30 })
  assert.deepEqual(
    slotsInRange(s, '06:30', '07:30')?.map((x) => x.start_time),
    ['06:30', '07:00'],
  )
  assert.equal(slotsInRange(s, '06:15', '07:00'), null)
  assert.equal(slotsInRange(s, '06:00', '06:45'), null)
  assert.equal(slotsInRange(s, '05:30', '06:30'), null)
  assert.equal(slotsInRange(s, '21:30', '22:30'), null)
  assert.equal(slotsInRange(s, '07:00', '07:00'), null)
  assert.equal(slotsInRange(s, '08:00', '07:00'), null)
  assert.equal(priceRange(s, '21:00', '22:00'), 100000)
})
