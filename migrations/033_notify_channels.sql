-- Confirmations that arrive (issue 47; docs/bookings.md, "Messages by SMS and email"): booking
-- confirmed, cancelled, refunded, a waitlist offer, a series week due and the reminder before play
-- also go to the player by SMS (the phone on file) and email (a verified email only), each channel
-- unless the player turned it off in their profile (PUT /api/profile). One-time codes and the
-- verification mail are not confirmations and ignore these settings.
ALTER TABLE users
  ADD COLUMN notify_sms boolean NOT NULL DEFAULT true,
  ADD COLUMN notify_email boolean NOT NULL DEFAULT true;

-- What the message job (notify.outbox) has sent for a notification, one row per channel, written
-- after the provider accepted it: a retried job (another channel failed, or the job's own commit
-- was lost) sends again only what has no row.
CREATE TABLE notification_deliveries (
  notification_id uuid NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
  channel text NOT NULL CHECK (channel IN ('sms', 'mail')),
  recipient text NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (notification_id, channel)
);
