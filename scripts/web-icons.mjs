#!/usr/bin/env node
// Draws the customer app's icons (web/public/icons, committed): a court on the app's blue, from one
// SVG through sharp. Run again after changing the drawing: `node scripts/web-icons.mjs`.
// "maskable" icons keep the drawing inside the middle 80 % (the safe zone a launcher may crop to).
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'

const out = new URL('../web/public/icons/', import.meta.url).pathname
mkdirSync(out, { recursive: true })

function svg({ padding, rounded }) {
  const s = 512
  const inner = s - 2 * padding
  const x = padding + inner * 0.18
  const y = padding + inner * 0.26
  const w = inner * 0.64
  const h = inner * 0.48
  const line = Math.max(6, inner * 0.035)
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${s}" height="${s}" viewBox="0 0 ${s} ${s}">
  <rect width="${s}" height="${s}" rx="${rounded ? 96 : 0}" fill="#0b57d0"/>
  <g fill="none" stroke="#ffffff" stroke-width="${line}">
    <rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${line}"/>
    <line x1="${x + w / 2}" y1="${y}" x2="${x + w / 2}" y2="${y + h}"/>
    <circle cx="${x + w / 2}" cy="${y + h / 2}" r="${h * 0.2}"/>
    <rect x="${x}" y="${y + h * 0.3}" width="${w * 0.12}" height="${h * 0.4}"/>
    <rect x="${x + w * 0.88}" y="${y + h * 0.3}" width="${w * 0.12}" height="${h * 0.4}"/>
  </g>
</svg>`
}

const icons = [
  { file: 'icon-192.png', size: 192, padding: 0, rounded: true },
  { file: 'icon-512.png', size: 512, padding: 0, rounded: true },
  { file: 'maskable-512.png', size: 512, padding: 52, rounded: false },
  { file: 'apple-touch-icon.png', size: 180, padding: 24, rounded: false },
]
for (const icon of icons) {
  await sharp(Buffer.from(svg(icon)))
    .resize(icon.size, icon.size)
    .png({ compressionLevel: 9, palette: true })
    .toFile(join(out, icon.file))
  console.log(`web/public/icons/${icon.file}`)
}
