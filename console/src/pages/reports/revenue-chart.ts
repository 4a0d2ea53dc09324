import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js'
import { money } from '../../format.ts'
import { METHOD_COLOURS, METHOD_LABELS, METHODS, type RevenueDay } from './methods.ts'

// The revenue chart: net revenue by day as bars stacked by payment method (Chart.js, only the parts
// a bar chart needs, so the lazy chunk stays small). Loaded by the Reports page with a dynamic
// import: the console's first load never carries it. The page writes the same numbers as a table
// for screen readers (the canvas itself is an image with a label).

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip)

/** Draws the chart into `canvas`; returns what removes it (when the range changes or the page goes). */
export function drawRevenue(canvas: HTMLCanvasElement, days: RevenueDay[]): () => void {
  const labels = days.map((d) => shortDay(d.date))
  const chart = new Chart(canvas, {
    type: 'bar',
    data: {
      labels,
      datasets: METHODS.map((m) => ({
        label: METHOD_LABELS[m],
        data: days.map((d) => Number(d.by_method[m])),
        backgroundColor: METHOD_COLOURS[m],
        stack: 'net',
      })),
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: {
        x: { stacked: true, ticks: { autoSkip: true, maxRotation: 0, color: '#4a5360' }, grid: { display: false } },
        y: {
          stacked: true,
          ticks: { color: '#4a5360', callback: (v) => money(Number(v)).replace(/\.00$/, '') },
        },
      },
      plugins: {
        legend: { position: 'bottom', labels: { color: '#1b1f24', boxWidth: 14 } },
        tooltip: {
          callbacks: {
            title: (items) => (items[0] ? days[items[0].dataIndex].date : ''),
            label: (item) => `${item.dataset.label}: ${money(Number(item.raw))}`,
          },
        },
      },
    },
  })
  return () => chart.destroy()
}

/** "2026-11-05" → "5 Nov". */
function shortDay(date: string): string {
  const [y, m, d] = date.split('-').map(Number)
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  })
}
