-- Cash-backs left by typed desk gateway payments go back through the gateway (docs/payments.md,
-- "Gateway payments at the desk"). Before migration 030 a refund of a gateway payment staff typed a
-- reference for became a cash-back due at the desk; the drawer now never pays those (it pays only
-- cash), so each such cash-back still due is moved to a gateway refund due, which the venue makes in
-- its own merchant portal and marks done: the cash-back's status becomes `moved`, a gateway_refunds
-- row takes its amount, and the ledger moves the money from cash_back_due to gateway_refund_due (an
-- entry of kind cash_back_moved). courtside_move_typed_cash_backs() does it and answers how many; it
-- is kept so the same step can be run again (and is tested on such rows).
ALTER TABLE cash_backs DROP CONSTRAINT cash_backs_status_check;
ALTER TABLE cash_backs ADD CONSTRAINT cash_backs_status_check CHECK (status IN ('due', 'paid', 'moved'));

CREATE FUNCTION courtside_move_typed_cash_backs() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  c record;
  refund_id bigint;
  entry bigint;
  moved integer := 0;
BEGIN
  FOR c IN
    SELECT k.*, p.method FROM cash_backs k JOIN payments p ON p.id = k.payment_id
    WHERE k.status = 'due' AND p.recorded_by IS NOT NULL AND p.method <> 'cash'
    ORDER BY k.id
    FOR UPDATE OF k
  LOOP
    INSERT INTO gateway_refunds (venue_id, booking_type, booking_id, payment_id, method, user_id, amount, reason, created_at)
    VALUES (c.venue_id, c.booking_type, c.booking_id, c.payment_id, c.method, c.user_id, c.amount, c.reason, now())
    RETURNING id INTO refund_id;
    UPDATE cash_backs SET status = 'moved' WHERE id = c.id;
    INSERT INTO ledger_entries (kind, occurred_at, description, payment_id, booking_type, booking_id, venue_id, user_id)
    VALUES ('cash_back_moved', now(),
      'Cash-back ' || c.id || ' of a typed ' || c.method || ' payment moved to gateway refund ' || refund_id,
      c.payment_id, c.booking_type, c.booking_id, c.venue_id, c.user_id)
    RETURNING id INTO entry;
    INSERT INTO ledger_lines (entry_id, account, amount) VALUES
      (entry, 'venue:' || c.venue_id || ':cash_back_due', c.amount),
      (entry, 'venue:' || c.venue_id || ':gateway_refund_due', -c.amount);
    moved := moved + 1;
  END LOOP;
  RETURN moved;
END
$$;

SELECT courtside_move_typed_cash_backs();
