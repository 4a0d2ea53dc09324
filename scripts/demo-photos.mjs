#!/usr/bin/env node
// Draws the demo venues' photos (src/lib/demo-photos/*.webp, committed): a court or an indoor game
// seen from above, one SVG each through sharp, encoded as small WebP (a few KB: the find page shows
// them as card thumbnails). The seed stores them through the app's storage like any upload
// (src/cli/seed.ts, `demoPhotos` in src/lib/demo-data.ts). Run again after changing a drawing:
// `node scripts/demo-photos.mjs`.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'

const out = new URL('../src/lib/demo-photos/', import.meta.url).pathname
mkdirSync(out, { recursive: true })

const W = 480
const H = 320

/** A picture of W × H: a background with light falling from the top, and the drawing. */
function picture({ top, bottom, glow = '#ffffff', glowOpacity = 0.18 }, body) {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/>
    </linearGradient>
    <radialGradient id="light" cx="0.5" cy="0" r="0.9">
      <stop offset="0" stop-color="${glow}" stop-opacity="${glowOpacity}"/>
      <stop offset="1" stop-color="${glow}" stop-opacity="0"/>
    </radialGradient>
  </defs>
  <rect width="${W}" height="${H}" fill="url(#bg)"/>
  ${body}
  <rect width="${W}" height="${H}" fill="url(#light)"/>
</svg>`
}

/** Mowing stripes across a pitch of `x, y, w, h`. */
function stripes(x, y, w, h, n, color) {
  const step = w / n
  let s = ''
  for (let i = 0; i < n; i += 2)
    s += `<rect x="${x + i * step}" y="${y}" width="${step}" height="${h}" fill="${color}"/>`
  return s
}

/** A futsal pitch: turf, lines, goals; `sky` for the light (day, evening under floodlights, a hall). */
function futsal(sky) {
  const x = 40
  const y = 40
  const w = W - 80
  const h = H - 80
  const line = 'stroke="#f4f7f2" stroke-width="4" fill="none"'
  const lamps =
    sky === 'evening'
      ? [60, W - 60]
          .map(
            (cx) =>
              `<circle cx="${cx}" cy="18" r="10" fill="#fff7c2"/><circle cx="${cx}" cy="18" r="36" fill="#fff7c2" opacity="0.25"/>`,
          )
          .join('')
      : ''
  const tones = {
    day: { top: '#2f8f3a', bottom: '#1f6e2a', stripe: '#3a9c45' },
    evening: { top: '#1d5e2a', bottom: '#0f3b1a', stripe: '#26703a' },
    hall: { top: '#2b7d5c', bottom: '#1b5c42', stripe: '#33896a' },
  }[sky]
  const walls =
    sky === 'hall'
      ? `<rect x="8" y="8" width="${W - 16}" height="${H - 16}" fill="none" stroke="#c9d3d8" stroke-width="10"/>`
      : ''
  return picture(
    {
      top: tones.top,
      bottom: tones.bottom,
      glow: sky === 'evening' ? '#fff7c2' : '#ffffff',
      glowOpacity: sky === 'evening' ? 0.3 : 0.15,
    },
    `${stripes(x, y, w, h, 12, tones.stripe)}${walls}
  <rect x="${x}" y="${y}" width="${w}" height="${h}" ${line}/>
  <line x1="${W / 2}" y1="${y}" x2="${W / 2}" y2="${y + h}" ${line}/>
  <circle cx="${W / 2}" cy="${H / 2}" r="38" ${line}/>
  <circle cx="${W / 2}" cy="${H / 2}" r="4" fill="#f4f7f2"/>
  <path d="M${x} ${H / 2 - 70} A70 70 0 0 1 ${x} ${H / 2 + 70}" ${line}/>
  <path d="M${x + w} ${H / 2 - 70} A70 70 0 0 0 ${x + w} ${H / 2 + 70}" ${line}/>
  <rect x="${x - 16}" y="${H / 2 - 30}" width="16" height="60" fill="none" stroke="#ffffff" stroke-width="4"/>
  <rect x="${x + w}" y="${H / 2 - 30}" width="16" height="60" fill="none" stroke="#ffffff" stroke-width="4"/>
  <circle cx="${W / 2 + 70}" cy="${H / 2 + 40}" r="9" fill="#ffffff" stroke="#222" stroke-width="2"/>
  ${lamps}`,
  )
}

/** A wooden basketball court with its keys and arcs. */
function basketball() {
  const line = 'stroke="#ffffff" stroke-width="4" fill="none"'
  let planks = ''
  for (let yy = 0; yy < H; yy += 16)
    planks += `<line x1="0" y1="${yy}" x2="${W}" y2="${yy}" stroke="#b8763a" stroke-width="1"/>`
  return picture(
    { top: '#d99a5b', bottom: '#c4803f' },
    `${planks}
  <rect x="30" y="30" width="${W - 60}" height="${H - 60}" ${line}/>
  <line x1="${W / 2}" y1="30" x2="${W / 2}" y2="${H - 30}" ${line}/>
  <circle cx="${W / 2}" cy="${H / 2}" r="36" ${line}/>
  <rect x="30" y="${H / 2 - 40}" width="90" height="80" fill="#9c3b2a" opacity="0.8"/>
  <rect x="${W - 120}" y="${H / 2 - 40}" width="90" height="80" fill="#9c3b2a" opacity="0.8"/>
  <path d="M30 ${H / 2 - 110} A120 110 0 0 1 30 ${H / 2 + 110}" ${line}/>
  <path d="M${W - 30} ${H / 2 - 110} A120 110 0 0 0 ${W - 30} ${H / 2 + 110}" ${line}/>
  <circle cx="48" cy="${H / 2}" r="9" fill="none" stroke="#ff6a13" stroke-width="4"/>
  <circle cx="${W - 48}" cy="${H / 2}" r="9" fill="none" stroke="#ff6a13" stroke-width="4"/>`,
  )
}

/** A badminton court on a green synthetic mat, with the net. */
function badminton() {
  const line = 'stroke="#ffffff" stroke-width="3" fill="none"'
  return picture(
    { top: '#2c6e8f', bottom: '#1f5169' },
    `<rect x="60" y="40" width="${W - 120}" height="${H - 80}" fill="#2e8b57"/>
  <rect x="60" y="40" width="${W - 120}" height="${H - 80}" ${line}/>
  <line x1="60" y1="62" x2="${W - 60}" y2="62" ${line}/>
  <line x1="60" y1="${H - 62}" x2="${W - 60}" y2="${H - 62}" ${line}/>
  <line x1="${W / 2 - 60}" y1="40" x2="${W / 2 - 60}" y2="${H - 40}" ${line}/>
  <line x1="${W / 2 + 60}" y1="40" x2="${W / 2 + 60}" y2="${H - 40}" ${line}/>
  <line x1="84" y1="40" x2="84" y2="${H - 40}" ${line}/>
  <line x1="${W - 84}" y1="40" x2="${W - 84}" y2="${H - 40}" ${line}/>
  <line x1="84" y1="${H / 2}" x2="${W / 2 - 60}" y2="${H / 2}" ${line}/>
  <line x1="${W / 2 + 60}" y1="${H / 2}" x2="${W - 84}" y2="${H / 2}" ${line}/>
  <line x1="${W / 2}" y1="28" x2="${W / 2}" y2="${H - 28}" stroke="#f2f2f2" stroke-width="6" stroke-dasharray="3 3"/>
  <path d="M${W / 2 + 80} ${H / 2 - 30} l10 -8 l4 12 z" fill="#ffffff"/>`,
  )
}

/** Cricket nets: two lanes of green matting inside the netting. */
function cricket() {
  let net = ''
  for (let xx = 0; xx <= W; xx += 20)
    net += `<line x1="${xx}" y1="0" x2="${xx}" y2="${H}" stroke="#e6e6e6" stroke-width="1" opacity="0.5"/>`
  for (let yy = 0; yy <= H; yy += 20)
    net += `<line x1="0" y1="${yy}" x2="${W}" y2="${yy}" stroke="#e6e6e6" stroke-width="1" opacity="0.5"/>`
  const lane = (y) => `<rect x="30" y="${y}" width="${W - 60}" height="90" fill="#3f9a4a"/>
  <rect x="30" y="${y}" width="${W - 60}" height="90" fill="none" stroke="#ffffff" stroke-width="3"/>
  <rect x="${W - 70}" y="${y + 33}" width="8" height="24" fill="#f5deb3"/>
  <rect x="62" y="${y + 33}" width="8" height="24" fill="#f5deb3"/>`
  return picture(
    { top: '#5b6b73', bottom: '#3c474d' },
    `${lane(60)}${lane(170)}${net}
  <circle cx="${W / 2}" cy="105" r="8" fill="#b22222"/>`,
  )
}

/** A sand volleyball court by the lake. */
function volleyball() {
  return picture(
    { top: '#7fc4e8', bottom: '#4a9ccc' },
    `<rect x="0" y="${H * 0.22}" width="${W}" height="${H * 0.78}" fill="#e8cf94"/>
  <rect x="60" y="${H * 0.3}" width="${W - 120}" height="${H * 0.58}" fill="none" stroke="#1f4fa3" stroke-width="6"/>
  <line x1="${W / 2}" y1="${H * 0.24}" x2="${W / 2}" y2="${H * 0.94}" stroke="#222" stroke-width="5" stroke-dasharray="4 3"/>
  <circle cx="${W / 2 - 90}" cy="${H * 0.55}" r="14" fill="#ffd23f" stroke="#1f4fa3" stroke-width="3"/>
  <path d="M0 ${H * 0.22} Q${W / 4} ${H * 0.17} ${W / 2} ${H * 0.22} T${W} ${H * 0.22}" fill="none" stroke="#ffffff" stroke-width="4" opacity="0.7"/>`,
  )
}

/** A console lounge: a big screen, a sofa and controllers. */
function playstation() {
  return picture(
    { top: '#1a1f3a', bottom: '#0c0f20', glow: '#4f7bff', glowOpacity: 0.35 },
    `<rect x="90" y="40" width="${W - 180}" height="150" rx="8" fill="#05070f" stroke="#2a2f4a" stroke-width="6"/>
  <rect x="102" y="52" width="${W - 204}" height="126" fill="#1d4ed8"/>
  <path d="M102 178 L${W / 2} 90 L${W - 102} 178 z" fill="#22c55e" opacity="0.8"/>
  <circle cx="${W / 2 + 60}" cy="85" r="16" fill="#fde047"/>
  <rect x="${W / 2 - 10}" y="190" width="20" height="16" fill="#2a2f4a"/>
  <rect x="80" y="240" width="${W - 160}" height="56" rx="18" fill="#7c2d12"/>
  <rect x="80" y="226" width="${W - 160}" height="26" rx="12" fill="#9a3412"/>
  <g fill="#e5e7eb"><rect x="150" y="262" width="54" height="22" rx="11"/><rect x="${W - 204}" y="262" width="54" height="22" rx="11"/></g>`,
  )
}

/** A carrom board from above: the frame, pockets, the centre circle and coins. */
function carrom() {
  const s = 270
  const x = (W - s) / 2
  const y = (H - s) / 2
  let coins = ''
  const colors = ['#111111', '#f5f0e1', '#111111', '#f5f0e1', '#111111', '#f5f0e1']
  for (let i = 0; i < 6; i++) {
    const a = (i * Math.PI) / 3
    coins += `<circle cx="${W / 2 + 20 * Math.cos(a)}" cy="${H / 2 + 20 * Math.sin(a)}" r="9" fill="${colors[i]}" stroke="#555" stroke-width="1"/>`
  }
  const pockets = [
    [x + 22, y + 22],
    [x + s - 22, y + 22],
    [x + 22, y + s - 22],
    [x + s - 22, y + s - 22],
  ]
    .map(([cx, cy]) => `<circle cx="${cx}" cy="${cy}" r="13" fill="#1b1b1b"/>`)
    .join('')
  return picture(
    { top: '#5a3a22', bottom: '#3e2716' },
    `<rect x="${x - 14}" y="${y - 14}" width="${s + 28}" height="${s + 28}" rx="6" fill="#2b1a0e"/>
  <rect x="${x}" y="${y}" width="${s}" height="${s}" fill="#e9c98f"/>
  ${pockets}
  <rect x="${x + 50}" y="${y + 50}" width="${s - 100}" height="${s - 100}" fill="none" stroke="#7a4a2a" stroke-width="2"/>
  <circle cx="${W / 2}" cy="${H / 2}" r="46" fill="none" stroke="#b22222" stroke-width="3"/>
  <circle cx="${W / 2}" cy="${H / 2}" r="9" fill="#c81e1e"/>
  ${coins}`,
  )
}

/** A chess board with a few pieces (discs) and a clock. */
function chess() {
  const n = 8
  const c = 30
  const x = (W - n * c) / 2 - 40
  const y = (H - n * c) / 2
  let squares = ''
  for (let r = 0; r < n; r++)
    for (let f = 0; f < n; f++)
      if ((r + f) % 2) squares += `<rect x="${x + f * c}" y="${y + r * c}" width="${c}" height="${c}" fill="#8b5a2b"/>`
  let pieces = ''
  for (let f = 0; f < n; f++) {
    pieces += `<circle cx="${x + f * c + c / 2}" cy="${y + c * 1.5}" r="9" fill="#1c1c1c"/>`
    pieces += `<circle cx="${x + f * c + c / 2}" cy="${y + c * 6.5}" r="9" fill="#fafafa" stroke="#444" stroke-width="1"/>`
  }
  return picture(
    { top: '#4b3a2a', bottom: '#2e2318' },
    `<rect x="${x - 10}" y="${y - 10}" width="${n * c + 20}" height="${n * c + 20}" fill="#3b2413"/>
  <rect x="${x}" y="${y}" width="${n * c}" height="${n * c}" fill="#f0d9b5"/>
  ${squares}${pieces}
  <rect x="${x + n * c + 40}" y="${H / 2 - 30}" width="90" height="60" rx="8" fill="#222"/>
  <rect x="${x + n * c + 48}" y="${H / 2 - 18}" width="34" height="30" fill="#f8fafc"/>
  <rect x="${x + n * c + 88}" y="${H / 2 - 18}" width="34" height="30" fill="#f8fafc"/>`,
  )
}

/** A table tennis table with the net, bats and a ball. */
function tableTennis() {
  return picture(
    { top: '#7a1f2b', bottom: '#561520' },
    `<rect x="60" y="60" width="${W - 120}" height="${H - 120}" fill="#1d4e89" stroke="#ffffff" stroke-width="5"/>
  <line x1="60" y1="${H / 2}" x2="${W - 60}" y2="${H / 2}" stroke="#ffffff" stroke-width="2"/>
  <line x1="${W / 2}" y1="48" x2="${W / 2}" y2="${H - 48}" stroke="#eeeeee" stroke-width="6" stroke-dasharray="2 2"/>
  <g><circle cx="120" cy="250" r="24" fill="#c81e1e"/><rect x="114" y="270" width="12" height="34" rx="3" fill="#8b5a2b"/></g>
  <g><circle cx="${W - 120}" cy="70" r="24" fill="#111111"/><rect x="${W - 126}" y="14" width="12" height="34" rx="3" fill="#8b5a2b"/></g>
  <circle cx="${W / 2 + 90}" cy="${H / 2 - 40}" r="7" fill="#ff9f1c"/>`,
  )
}

/** A ludo board: the four homes and the cross of paths. */
function ludo() {
  const s = 270
  const x = (W - s) / 2
  const y = (H - s) / 2
  const q = s * 0.4
  const home = (hx, hy, color) =>
    `<rect x="${hx}" y="${hy}" width="${q}" height="${q}" fill="${color}"/><rect x="${hx + q * 0.2}" y="${hy + q * 0.2}" width="${q * 0.6}" height="${q * 0.6}" fill="#ffffff"/>`
  return picture(
    { top: '#3b4252', bottom: '#2e3440' },
    `<rect x="${x}" y="${y}" width="${s}" height="${s}" fill="#ffffff" stroke="#222" stroke-width="4"/>
  ${home(x, y, '#dc2626')}${home(x + s - q, y, '#16a34a')}${home(x, y + s - q, '#2563eb')}${home(x + s - q, y + s - q, '#facc15')}
  <path d="M${x + q} ${y + q} L${W / 2} ${H / 2} L${x + s - q} ${y + q} z" fill="#16a34a"/>
  <path d="M${x + q} ${y + q} L${W / 2} ${H / 2} L${x + q} ${y + s - q} z" fill="#dc2626"/>
  <path d="M${x + s - q} ${y + s - q} L${W / 2} ${H / 2} L${x + q} ${y + s - q} z" fill="#2563eb"/>
  <path d="M${x + s - q} ${y + s - q} L${W / 2} ${H / 2} L${x + s - q} ${y + q} z" fill="#facc15"/>
  <rect x="${x + s + 30}" y="${H / 2 - 20}" width="40" height="40" rx="8" fill="#ffffff"/>
  <g fill="#111"><circle cx="${x + s + 40}" cy="${H / 2 - 10}" r="4"/><circle cx="${x + s + 50}" cy="${H / 2}" r="4"/><circle cx="${x + s + 60}" cy="${H / 2 + 10}" r="4"/></g>`,
  )
}

const photos = {
  'futsal-day': futsal('day'),
  'futsal-evening': futsal('evening'),
  'futsal-hall': futsal('hall'),
  basketball: basketball(),
  badminton: badminton(),
  cricket: cricket(),
  volleyball: volleyball(),
  playstation: playstation(),
  carrom: carrom(),
  chess: chess(),
  table_tennis: tableTennis(),
  ludo: ludo(),
}
for (const [name, svg] of Object.entries(photos)) {
  const file = join(out, `${name}.webp`)
  const info = await sharp(Buffer.from(svg)).webp({ quality: 62, effort: 6 }).toFile(file)
  console.log(`src/lib/demo-photos/${name}.webp ${(info.size / 1024).toFixed(1)} KB`)
}
