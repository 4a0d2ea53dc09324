import assert from 'node:assert/strict'
import { test } from 'node:test'
import { levelOf, newRating, rateTeamGame, ratingOfLevel, reliabilityOf } from '../../src/modules/matches/rating.ts'

// The level scale (docs/matches.md, "Results and levels"): Glicko-2 ratings mapped onto 0.0–7.0.

test('ratings map linearly onto levels 0.0–7.0, clamped, one decimal', () => {
  assert.equal(levelOf(1500), 3.5)
  assert.equal(levelOf(800), 0)
  assert.equal(levelOf(2200), 7)
  assert.equal(levelOf(100), 0)
  assert.equal(levelOf(3000), 7)
  assert.equal(levelOf(1662.3), 4.3)
  assert.equal(ratingOfLevel(3.5), 1500)
})

test('reliability grows as the deviation falls from 350 to 50', () => {
  assert.equal(reliabilityOf(350), 0)
  assert.equal(reliabilityOf(200), 50)
  assert.equal(reliabilityOf(50), 100)
  assert.equal(reliabilityOf(30), 100)
})

test('a team win moves the winners up and the losers down by as much; a draw of equals moves nobody', () => {
  const [won, lost] = rateTeamGame(
    [
      [newRating(), newRating()],
      [newRating(), newRating()],
    ],
    1,
  )
  for (const r of won) assert.ok(r.rating > 1600 && r.rd < 350, JSON.stringify(r))
  for (const r of lost) assert.ok(r.rating < 1400 && r.rd < 350, JSON.stringify(r))
  assert.ok(Math.abs(won[0].rating - 1500 - (1500 - lost[0].rating)) < 1e-6)
  const [a, b] = rateTeamGame([[newRating()], [newRating()]], 0.5)
  assert.ok(Math.abs(a[0].rating - 1500) < 1e-6 && Math.abs(b[0].rating - 1500) < 1e-6)
  // An upset moves more than an expected win.
  const strong = { rating: 1900, rd: 80, volatility: 0.06 }
  const weak = { rating: 1300, rd: 80, volatility: 0.06 }
  const [[expected]] = rateTeamGame([[strong], [weak]], 1)
  const [[upset]] = rateTeamGame([[weak], [strong]], 1)
  assert.ok(upset.rating - weak.rating > expected.rating - strong.rating)
})
