import { DAY_NAMES } from '../../components/forms.tsx'
import type { Summary } from './methods.ts'

// Occupancy by weekday and hour as a table (a heatmap that is also plain data): a row per weekday,
// a column per hour the venue opens, each cell the share of its open time that was booked, written
// in the cell and in its title, shaded in five steps. Every shade keeps its text at AA contrast.

type Cell = Summary['by_hour'][number]

/** The upper bound of each shade's share (styles.css: .heat-0 … .heat-4). */
const SHADES = [0, 0.25, 0.5, 0.75, 1]

const hourName = (h: number) => `${String(h).padStart(2, '0')}:00`

export function Heatmap({ cells }: { cells: Cell[] }) {
  const open = cells.filter((c) => c.open_hours > 0 || c.booked_hours > 0)
  if (open.length === 0) return <p>The venue had no open hours in this range.</p>
  const hours = [...new Set(open.map((c) => c.hour))].sort((a, b) => a - b)
  const first = hours[0]
  const last = hours[hours.length - 1]
  const columns = Array.from({ length: last - first + 1 }, (_, i) => first + i)
  const at = new Map(open.map((c) => [c.weekday * 24 + c.hour, c]))
  // Monday first, as a week is read at a Nepali venue's desk.
  const weekdays = [1, 2, 3, 4, 5, 6, 0]
  return (
    <>
      <p class="muted">
        Each cell is the share of the open court and game time that was booked, that weekday, in that hour, over the
        range. Darker is busier.
      </p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1) */}
      <section class="heatmap-scroll" aria-label="Occupancy heatmap" tabIndex={0}>
        <table class="heatmap">
          <caption class="sr-only">Occupancy by weekday and hour: share of open time booked</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {columns.map((h) => (
                <th key={h} scope="col">
                  {hourName(h)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {weekdays.map((w) => (
              <tr key={w}>
                <th scope="row">{DAY_NAMES[w].slice(0, 3)}</th>
                {columns.map((h) => {
                  const c = at.get(w * 24 + h)
                  if (!c || c.open_hours === 0) {
                    return (
                      <td key={h} class="closed" title={`${DAY_NAMES[w]} ${hourName(h)}: closed`}>
                        <span aria-hidden="true">·</span>
                        <span class="sr-only">closed</span>
                      </td>
                    )
                  }
                  const share = Math.min(c.booked_hours / c.open_hours, 1)
                  const shade = SHADES.findIndex((upTo) => share <= upTo)
                  const pct = `${Math.round(share * 100)}%`
                  return (
                    <td
                      key={h}
                      class={`heat-${shade}`}
                      title={`${DAY_NAMES[w]} ${hourName(h)}–${hourName(h + 1)}: ${c.booked_hours} of ${c.open_hours} open hours booked (${pct})`}
                    >
                      {pct}
                    </td>
                  )
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  )
}
