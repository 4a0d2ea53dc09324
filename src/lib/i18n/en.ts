// The server's English texts (docs/languages.md): one key per sentence the server writes for a
// person, each exactly as the API contract and the messages say it. `{name}` is a value filled in;
// `{name:kind}` says how the other language writes it (n a number, money "Rs 1,200.00", date
// "YYYY-MM-DD", time "HH:mm", moment "YYYY-MM-DD HH:mm[:ss]", dur "24 hours", text a sentence of
// its own, field a field name, word one word of the catalogue's word.* keys). ne.ts has every key
// (npm run check:catalogue fails the build otherwise).

export const en = {
  // Error bodies (src/lib/errors.ts).
  'error.invalid': 'The given data was invalid.',
  'error.not_found': 'Not found.',
  'error.unauthenticated': 'Unauthenticated.',
  'error.forbidden': 'This action is unauthorized.',
  'error.too_many': 'Too Many Attempts.',
  'error.too_large': 'The request is too large.',
  'error.bad_json': 'The request body is not valid JSON.',
  'error.empty_json': 'The request body is empty but the content type is JSON.',
  'error.media_type': 'Unsupported media type.',
  'error.bad_request': 'Bad request.',
  'error.server': 'Server Error.',
  'error.suspended': 'Your account is suspended.',
  'error.invalid_otp': 'Invalid or expired OTP.',
  'error.invalid_credentials': 'Invalid credentials.',
  'error.signature': 'Invalid signature.',

  // Validation messages, in Laravel's words (src/lib/errors.ts and services).
  'validation.required': 'The {field:field} field is required.',
  'validation.integer': 'The {field:field} field must be an integer.',
  'validation.number': 'The {field:field} field must be a number.',
  'validation.boolean': 'The {field:field} field must be true or false.',
  'validation.array': 'The {field:field} field must be an array.',
  'validation.object': 'The {field:field} field must be an object.',
  'validation.string': 'The {field:field} field must be a string.',
  'validation.min_length': 'The {field:field} field must be at least {limit:n} characters.',
  'validation.max_length': 'The {field:field} field must not be greater than {limit:n} characters.',
  'validation.min': 'The {field:field} field must be at least {limit:n}.',
  'validation.max': 'The {field:field} field must not be greater than {limit:n}.',
  'validation.min_items': 'The {field:field} field must have at least {limit:n} items.',
  'validation.max_items': 'The {field:field} field must not have more than {limit:n} items.',
  'validation.selected': 'The selected {field:field} is invalid.',
  'validation.multiple_of': 'The {field:field} field must be a multiple of {limit:n}.',
  'validation.decimals': 'The {field:field} field must have at most 2 decimal places.',
  'validation.email': 'The {field:field} field must be a valid email address.',
  'validation.date': 'The {field:field} field must be a valid date.',
  'validation.uuid': 'The {field:field} field must be a valid UUID.',
  'validation.url': 'The {field:field} field must be a valid URL.',
  'validation.format': 'The {field:field} field format is invalid.',
  'validation.money_text':
    'The {field:field} field must be an amount of at most {max:n}.00 with at most 2 decimal places.',
  'validation.time': 'The {field:field} field must match the format H:i.',
  'validation.invalid': 'The {field:field} field is invalid.',
  'validation.between': 'The {field:field} field must be between {min:n} and {max:n}.',
  'validation.value': 'The value is invalid.',
  'validation.phone': 'The {field:field} field must be a valid phone number.',
  'validation.taken': 'The {field:field} has already been taken.',
  'validation.confirmation': 'The {field:field} field confirmation does not match.',
  'validation.password': 'The password is incorrect.',
  'validation.kilobytes': 'The {field:field} field must not be greater than {limit:n} kilobytes.',
  'validation.image': 'The {field:field} field must be an image.',
  'validation.file_types': 'The {field:field} field must be a file of type: {types}.',
  'validation.multipart': 'The request must be multipart/form-data.',
  'validation.malformed': 'A value is out of range or malformed.',

  // Booking rules (src/modules/booking-core/rules.ts).
  'rules.pay_at_venue_off':
    'This venue does not take payment at the venue: pay online (eSewa, Khalti, Fonepay or your wallet).',
  'rules.window':
    'This venue takes bookings at most {days:dur} ahead (booking window): the last date you can book is {last:date}.',
  'rules.notice': 'This venue takes bookings at least {notice:dur} before the start (minimum notice).',
  'rules.daily':
    'You can book at most {max:dur} a day at this venue (daily limit): you already have {booked:dur} on {date:date}.',
  'rules.no_shows':
    'You have {count:dur} at this venue in the last {days:n} days (its limit is {limit:n}): you can book here only by paying online at once; paying at the venue is not available.',

  // Refund quotes and cancellation notices (src/modules/booking-core/cancellation.ts).
  'cancel.completed': 'A completed booking cannot be cancelled.',
  'cancel.state': 'A {state:word} booking cannot be cancelled.',
  'cancel.started': 'A booking that has started cannot be cancelled.',
  'cancel.nothing_paid': 'Nothing has been paid for this booking, so there is nothing to refund.',
  'cancel.already_refunded': 'No refund: what was paid for this booking has already been refunded.',
  'cancel.desk_no_wallet': 'No refund: a booking made at the desk has no wallet to refund to.',
  'cancel.to_wallet': '{amount:money} refunded to your wallet.',
  'cancel.at_desk': '{amount:money} paid at the venue is refunded at its desk.',
  'cancel.desk_gateway': '{amount:money} paid by eSewa, Khalti or Fonepay at the venue goes back through that gateway.',
  'cancel.earlier': '{amount:money} was refunded earlier.',
  'cancel.by_venue': 'Cancelled by the venue: {said:text}',
  'cancel.too_late': 'No refund: less than {hours:dur} before the start.',
  'cancel.in_window': 'At least {hours:dur} before the start: {said:text}',
  'cancel.done': 'Booking cancelled.',
  'cancel.done_note': 'Booking cancelled. {note:text}',

  // In-app notifications and push (the `message` of each notification's data).
  'notify.confirmed': 'Your booking {number} on {date:date} at {time:time} is confirmed.',
  'notify.confirmed_indoor': 'Your indoor game booking {number} on {date:date} at {time:time} is confirmed.',
  'notify.cancelled': 'Your booking {number} on {date:date} at {time:time} was cancelled.{more:text}',
  'notify.late_payment':
    'Your payment for booking {number} on {date:date} at {time:time} arrived after it was cancelled and {why:text}. {amount:money} has been credited to your wallet.',
  'notify.late_slot_taken': 'the slot has been booked by someone else',
  'notify.late_coupon': 'its coupon has been used up meanwhile',
  'notify.late_inactive': 'the booking is no longer active',
  'notify.refunded': '{amount:money} of your payment for booking {number} was refunded {where:text}.',
  'notify.to_wallet': 'to your wallet',
  'notify.at_desk': 'at the venue’s desk',
  'notify.to_source': 'to the Khalti account you paid from',
  'notify.to_gateway': 'through the gateway you paid with',
  'notify.reminder': 'Reminder: your booking {number} at {venue} is on {date:date} at {time:time}.',
  'notify.offer':
    'The slot you waited for on {date:date} at {time:time} is free: booking {number} is held for you until {until:moment}. Pay it to keep it.',
  'notify.series_due':
    'Your booking {number} on {date:date} at {time:time} (a weekly series) is not paid yet. Pay for it by {by:moment} or it will be released.',
  'notify.team': 'Your team {team} is registered for {tournament}.',
  'notify.webhook_disabled': 'The webhook {url} of {venue} was disabled: its deliveries failed for 24 hours.',
  'notify.cash_back_due':
    'A cash-back of {amount:money} for booking {number} is due at the desk of {venue} ({detail:text}).{approval:text}',
  'notify.cash_back_detail_both': 'a {method:word} payment taken by {taker}, refunded by {canceller}',
  'notify.cash_back_detail_taker': 'a {method:word} payment taken by {taker}',
  'notify.cash_back_detail_canceller': 'a {method:word} payment, refunded by {canceller}',
  'notify.cash_back_detail': 'a {method:word} payment',
  'notify.cash_back_approval': 'It needs your or a manager’s approval before staff pay it out.',
  'notify.cash_back_paid_by':
    'A cash-back of {amount:money} for booking {number} was paid out at the desk of {venue} by {payer}.',
  'notify.cash_back_paid': 'A cash-back of {amount:money} for booking {number} was paid out at the desk of {venue}.',
  'notify.hold_expired': 'Payment not received',
  'notify.maintenance_reason': 'The court is closed for maintenance ({from:time}–{to:time}): {reason}.',
  'notify.maintenance': 'The court is closed for maintenance ({from:time}–{to:time}).',
  // Open matches (src/modules/matches/notices.ts) and split payments (src/modules/splits/service.ts).
  'notify.match_joined': '{player} joined the {sport:word} match at {venue} on {start:moment}.',
  'notify.match_full': 'The {sport:word} match at {venue} on {start:moment} is full: every spot is taken.',
  'notify.match_left': '{player} left the {sport:word} match at {venue} on {start:moment}; a spot is open again.',
  'notify.match_deadline':
    'The {sport:word} match at {venue} on {start:moment} still has open spots and its pay deadline is near.',
  'notify.match_result':
    '{player} reported the result of the {sport:word} match at {venue} on {start:moment}. Please confirm it.',
  'notify.split_paid': '{payer} paid {amount:money} of booking {number} on {date:date} at {time:time}. {rest:text}',
  'notify.split_all_paid': 'Every share is paid.',
  'notify.split_unpaid': '{unpaid:n} of {total:n} shares are still unpaid; you can pay the rest at once (settle).',

  // Push titles: the notification's class (what English readers have always seen).
  'push.BookingConfirmed': 'BookingConfirmed',
  'push.BookingCancelled': 'BookingCancelled',
  'push.BookingRefunded': 'BookingRefunded',
  'push.BookingReminder': 'BookingReminder',
  'push.CashBackDue': 'CashBackDue',
  'push.CashBackPaid': 'CashBackPaid',
  'push.IndoorGameBookingConfirmed': 'IndoorGameBookingConfirmed',
  'push.MatchDeadlineNear': 'MatchDeadlineNear',
  'push.MatchFull': 'MatchFull',
  'push.MatchJoined': 'MatchJoined',
  'push.MatchPlayerLeft': 'MatchPlayerLeft',
  'push.MatchResultToConfirm': 'MatchResultToConfirm',
  'push.SeriesPaymentDue': 'SeriesPaymentDue',
  'push.SplitSharePaid': 'SplitSharePaid',
  'push.TournamentRegistered': 'TournamentRegistered',
  'push.WaitlistOffer': 'WaitlistOffer',
  'push.WebhookEndpointDisabled': 'WebhookEndpointDisabled',

  // One-time codes and the verification mail (src/modules/accounts).
  'otp.subject': 'Your verification code',
  'otp.body':
    'Your Courtside verification code is {code}. It expires in {minutes:n} minutes. Never share it with anyone.',
  'verify.subject': 'Verify your email address',
  'verify.body':
    'Please confirm your email address by opening this link (valid for {minutes:n} minutes):\n\n{url}\n\nIf you did not create an account, no further action is required.',

  // The local gateway sandbox's pages (src/modules/payments/sandbox-pages.ts).
  'sandbox.test': 'This is a test payment; no money moves.',
  'sandbox.amount': 'Amount:',
  'sandbox.pay': 'Pay',
  'sandbox.cancel': 'Cancel',
  'sandbox.lost': 'Pay, but never return to the merchant',
  'sandbox.complete': 'Payment complete. You may close this window.',
  'sandbox.unknown': 'Unknown payment.',
  'sandbox.expired': 'This payment link has expired.',
  'sandbox.bad_signature': 'Invalid payload signature.',
  'sandbox.bad_dv': 'Invalid data verification (DV).',
  'sandbox.title': '{gateway} sandbox',

  // Units of a `dur` value ("24 hours"), one word each.
  'unit.day': 'day',
  'unit.hour': 'hour',
  'unit.minute': 'minute',
  'unit.no-show': 'no-show',

  // Words a `word` value may be (booking states as messages write them).
  'word.pending': 'pending',
  'word.confirmed': 'confirmed',
  'word.cancelled': 'cancelled',
  'word.no-show': 'no-show',
  'word.expired': 'expired',
  'word.cash': 'cash',
  'word.wallet': 'wallet',
  // Sports (a match's sport); a sport not here is written as the venue named it.
  'word.futsal': 'futsal',
  'word.cricket': 'cricket',
  'word.badminton': 'badminton',
  'word.tennis': 'tennis',
  'word.basketball': 'basketball',
  'word.volleyball': 'volleyball',

  // Field names a `field` value may be; a field not here is written as the API names it.
  'field.amount': 'amount',
  'field.name': 'name',
  'field.email': 'email',
  'field.phone': 'phone',
  'field.password': 'password',
  'field.date': 'date',
  'field.start time': 'start time',
  'field.end time': 'end time',
  'field.locale': 'locale',
  'field.payment method': 'payment method',
  // money-gaps: a split booking paid in full by a payment of no share (src/modules/splits/service.ts).
  'notify.split_settled_whole':
    'Booking {number} on {date:date} at {time:time} is paid in full by a payment of {amount:money}: the shares still unpaid ({count:n}) are settled and their links can no longer be paid.',
  // money-gaps: the fields of PUT /api/profile/invoice-details, named in its validation messages.
  'field.buyer pan': 'buyer pan',
  'field.buyer address': 'buyer address',
} as const

export type MessageKey = keyof typeof en
