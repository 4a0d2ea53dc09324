-- A payout happens once (docs/payments.md, "What a venue sees"): its reference (the bank's or
-- wallet's transfer id) is unique per venue, case and surrounding spaces aside, so the same transfer
-- cannot be recorded twice. Duplicates recorded before this rule keep their rows and money but have
-- their reference marked, so the index can be built; the ledger is not changed.
UPDATE payouts p SET reference = p.reference || ' (duplicate of payout ' || d.first_id || ')'
FROM (
  SELECT id, min(id) OVER (PARTITION BY venue_id, lower(btrim(reference))) AS first_id FROM payouts
) d
WHERE d.id = p.id AND d.first_id <> p.id;

CREATE UNIQUE INDEX payouts_venue_reference_key ON payouts (venue_id, lower(btrim(reference)));
