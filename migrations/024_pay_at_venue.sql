-- Paying at the venue (issue 34): every venue has offered customers "pay at the venue" (a booking's
-- payment_method cash). The owner or a manager may turn it off; customers must then pay online
-- (gateway or wallet). Staff desk bookings and desk payments are not affected.
ALTER TABLE venues ADD COLUMN allows_pay_at_venue boolean NOT NULL DEFAULT true;
