-- A coupon usage is released, not deleted, when its booking is cancelled or expires unpaid
-- (src/modules/coupons/service.ts): the row remembers which coupon the booking had, so a booking
-- reinstated by a late gateway payment takes the same use again, or is refused when the coupon has
-- been used up meanwhile (src/modules/booking-core/transitions.ts). Counts read live rows only.
ALTER TABLE coupon_usages ADD COLUMN released_at timestamptz;
CREATE INDEX coupon_usages_live_idx ON coupon_usages (coupon_id, user_id) WHERE released_at IS NULL;
