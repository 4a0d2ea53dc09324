import assert from 'node:assert/strict'
import { test } from 'node:test'
import { escapeText, foldLine, localStamp, utcStamp } from '../../src/modules/calendar/ical.ts'

// RFC 5545 text rules of the feed renderer, on their own.

test('TEXT escaping: backslash, semicolon, comma and every kind of newline', () => {
  assert.equal(escapeText('a\\b;c,d\ne\r\nf\rg'), 'a\\\\b\\;c\\,d\\ne\\nf\\ng')
  assert.equal(escapeText('Court "A": 10:00'), 'Court "A": 10:00')
})

test('folding: lines of at most 75 octets, continuation lines start with a space, UTF-8 never split', () => {
  const line = `SUMMARY:${'é'.repeat(60)}${'x'.repeat(50)}🎾🎾🎾${'y'.repeat(80)}`
  const folded = foldLine(line)
  const parts = folded.split('\r\n')
  assert.ok(parts.length > 2)
  for (const [i, p] of parts.entries()) {
    assert.ok(Buffer.byteLength(p, 'utf8') <= 75, `part ${i}: ${Buffer.byteLength(p, 'utf8')}`)
    if (i > 0) assert.ok(p.startsWith(' '))
    assert.ok(!p.includes('\uFFFD'))
  }
  // Unfolding (remove CRLF + one space) gives the line back.
  assert.equal(folded.replace(/\r\n /g, ''), line)
  assert.equal(foldLine('SHORT:x'), 'SHORT:x')
  const exact = `X:${'a'.repeat(73)}`
  assert.equal(foldLine(exact), exact)
})

test('date-time values', () => {
  assert.equal(utcStamp(new Date('2026-11-24T01:02:03.456Z')), '20261124T010203Z')
  assert.equal(localStamp('2026-03-29', '19:00:00'), '20260329T190000')
  assert.equal(localStamp('2026-03-29', '07:30'), '20260329T073000')
})
