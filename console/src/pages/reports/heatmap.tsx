import { useEffect, useState } from 'preact/hooks'
import { digits, type MessageKey, t, weekday } from '../../i18n/index.ts'
import type { Summary } from './methods.ts'

// Occupancy by weekday and hour as a table (a heatmap that is also plain data), each cell the share
// of its open time that was booked, written in the cell and in its title, shaded in five steps.
// Every shade keeps its text at AA contrast. On a wide screen a row per weekday and a column per
// hour; on a phone (PHONE) the table is turned: a row per hour and a column per weekday, so seven
// narrow columns fit the width and every hour, the evening included, is read by scrolling down
// (a column per hour showed only the morning there, the rest hidden to the right).

type Cell = Summary['by_hour'][number]

/** The upper bound of each shade's share (styles.css: .heat-0 … .heat-4). */
const SHADES = [0, 0.25, 0.5, 0.75, 1]

/** Screens this narrow get the turned table. */
const PHONE = '(max-width: 640px)'

const hourName = (h: number) => digits(`${String(h).padStart(2, '0')}:00`)
const dayName = (w: number) => t(`day.${w}` as MessageKey)

/** Whether the screen matches `query` now, following changes (a rotated phone). */
function useMedia(query: string): boolean {
  const [matches, setMatches] = useState(() => globalThis.matchMedia?.(query).matches ?? false)
  useEffect(() => {
    const list = globalThis.matchMedia?.(query)
    if (!list) return
    const changed = () => setMatches(list.matches)
    changed()
    list.addEventListener('change', changed)
    return () => list.removeEventListener('change', changed)
  }, [query])
  return matches
}

export function Heatmap({ cells }: { cells: Cell[] }) {
  const phone = useMedia(PHONE)
  const open = cells.filter((c) => c.open_hours > 0 || c.booked_hours > 0)
  if (open.length === 0) return <p>{t('heatmap.none')}</p>
  const seen = [...new Set(open.map((c) => c.hour))].sort((a, b) => a - b)
  const first = seen[0]
  const last = seen[seen.length - 1]
  const hours = Array.from({ length: last - first + 1 }, (_, i) => first + i)
  const at = new Map(open.map((c) => [c.weekday * 24 + c.hour, c]))
  // Monday first, as a week is read at a Nepali venue's desk.
  const weekdays = [1, 2, 3, 4, 5, 6, 0]
  const td = (w: number, h: number) => <HeatCell key={`${w}-${h}`} w={w} h={h} cell={at.get(w * 24 + h)} />
  return (
    <>
      <p class="muted">{t('heatmap.explain')}</p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1) */}
      <section class="heatmap-scroll" aria-label={t('heatmap.label')} tabIndex={0}>
        <table class={phone ? 'heatmap heatmap-turned' : 'heatmap'}>
          <caption class="sr-only">{t('heatmap.caption')}</caption>
          {phone ? (
            <>
              <thead>
                <tr>
                  <th scope="col">{t('heatmap.hour')}</th>
                  {weekdays.map((w) => (
                    <th key={w} scope="col" title={dayName(w)}>
                      {weekday(w)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {hours.map((h) => (
                  <tr key={h}>
                    <th scope="row">{hourName(h)}</th>
                    {weekdays.map((w) => td(w, h))}
                  </tr>
                ))}
              </tbody>
            </>
          ) : (
            <>
              <thead>
                <tr>
                  <th scope="col">{t('common.day')}</th>
                  {hours.map((h) => (
                    <th key={h} scope="col">
                      {hourName(h)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {weekdays.map((w) => (
                  <tr key={w}>
                    <th scope="row" title={dayName(w)}>
                      {weekday(w)}
                    </th>
                    {hours.map((h) => td(w, h))}
                  </tr>
                ))}
              </tbody>
            </>
          )}
        </table>
      </section>
    </>
  )
}

function HeatCell({ w, h, cell }: { w: number; h: number; cell: Cell | undefined }) {
  if (!cell || cell.open_hours === 0) {
    return (
      <td class="closed" title={t('heatmap.closedAt', { day: dayName(w), hour: hourName(h) })}>
        <span aria-hidden="true">·</span>
        <span class="sr-only">{t('heatmap.closed')}</span>
      </td>
    )
  }
  const share = Math.min(cell.booked_hours / cell.open_hours, 1)
  const shade = SHADES.findIndex((upTo) => share <= upTo)
  const pct = digits(`${Math.round(share * 100)}%`)
  return (
    <td
      class={`heat-${shade}`}
      title={t('heatmap.cell', {
        day: dayName(w),
        from: hourName(h),
        to: hourName(h + 1),
        booked: digits(String(cell.booked_hours)),
        open: digits(String(cell.open_hours)),
        percent: pct,
      })}
    >
      {pct}
    </td>
  )
}
