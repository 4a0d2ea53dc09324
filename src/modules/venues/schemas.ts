import { Type } from 'typebox'
import { ClockInput, DateInput, DateTime, FileInput, Nullable, named, namedEnum } from '../../lib/schemas.ts'
import { UserSchema } from '../accounts/index.ts'
import { ImageCollectionEnum } from './resource.ts'

// Request shapes of the venue routes. Multipart bodies arrive with text fields as strings (coerced
// to these types, as query strings are) and files as Uploads (temporary files), so file fields
// (FileInput) take any value here and are checked by content in the service. The server reads
// `gallery[]` and `gallery` alike; the document lists `gallery[]`, the contract's name, once.

const Latitude = Type.Number({ minimum: -90, maximum: 90 })
const Longitude = Type.Number({ minimum: -180, maximum: 180 })

const FreeCancellationHours = Type.Integer({
  minimum: 0,
  maximum: 720,
  description: 'Hours before the start up to which a customer cancelling is refunded; default 24',
})
/** The booking rules (docs/bookings.md, "Booking rules"); customers only, staff are exempt. */
export const bookingRuleFields = {
  booking_window_days: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 365,
      description: 'How many days ahead a customer may book (1–365); default 30',
    }),
  ),
  min_notice_minutes: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 10080,
      description: "Minutes before a booking's start a customer must book it (0–10080); default 0",
    }),
  ),
  max_hours_per_day: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 1,
        maximum: 24,
        description:
          'Hours one customer may book at the venue on one date, court and indoor together (1–24); null: no limit (default)',
      }),
    ),
  ),
  no_show_limit: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 1,
        maximum: 100,
        description:
          'No-shows in the last 90 days after which a customer must pay online at once to book here (1–100); null: never; default 2',
      }),
    ),
  ),
  allows_pay_at_venue: Type.Optional(
    Type.Boolean({
      description:
        'Whether customers may choose to pay at the venue (payment_method cash); false: they pay online (gateway or wallet). Desk bookings are not affected; default true',
    }),
  ),
}
/** The venue's tax identity, printed on its receipts (docs/payments.md, "Receipts and IRD"); the owner's to set. */
export const taxIdentityFields = {
  pan_number: Type.Optional(
    Nullable(
      Type.String({
        pattern: '^[0-9]{9}$',
        description: 'Permanent Account Number: exactly 9 digits (owner, super_admin)',
      }),
    ),
  ),
  vat_registered: Type.Optional(
    Type.Boolean({
      description: 'VAT registered (needs pan_number): receipts show the 13% VAT in the price (owner, super_admin)',
    }),
  ),
  legal_name: Type.Optional(
    Nullable(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: 'Legal name on receipts; null: the venue name (owner, super_admin)',
      }),
    ),
  ),
}
/** A name in Nepali (docs/catalogue.md, "Names in Nepali"): text with Devanagari in it; null clears it. */
const NepaliName = (maxLength: number) =>
  Nullable(
    Type.String({
      minLength: 1,
      maxLength,
      pattern: '[\\u0900-\\u097F]',
      description: 'In Nepali: must contain Devanagari; null clears it',
    }),
  )
const IdList = Type.Array(Type.Integer({ minimum: 1 }))
const Upload = FileInput('Image file (jpg, png or webp)')

const venueFields = {
  name: Type.String({ minLength: 1, maxLength: 255 }),
  description: Nullable(Type.String({ maxLength: 5000 })),
  phone: Nullable(Type.String({ maxLength: 30 })),
  email: Nullable(Type.String({ maxLength: 255, format: 'email' })),
  address: Type.String({ minLength: 1, maxLength: 255 }),
  name_ne: Type.Optional(NepaliName(255)),
  address_ne: Type.Optional(NepaliName(255)),
  city: Type.String({ minLength: 1, maxLength: 100 }),
  state: Type.String({ minLength: 1, maxLength: 100 }),
  latitude: Latitude,
  longitude: Longitude,
  opening_time: ClockInput,
  closing_time: ClockInput,
  amenities: Type.Optional(IdList),
  'amenities[]': Type.Optional(IdList),
  thumbnail: Type.Optional(Upload),
  gallery: Type.Optional(Upload),
  'gallery[]': Type.Optional(Upload),
  owner_id: Type.Optional(Type.Integer({ minimum: 1, description: 'super_admin only' })),
  free_cancellation_hours: Type.Optional(FreeCancellationHours),
  ...bookingRuleFields,
}

export const VenueCreateBody = Type.Object({
  ...venueFields,
  description: Type.Optional(venueFields.description),
  phone: Type.Optional(venueFields.phone),
  email: Type.Optional(venueFields.email),
})

export const VenueUpdateBody = Type.Object({
  name: Type.Optional(venueFields.name),
  description: Type.Optional(venueFields.description),
  phone: Type.Optional(venueFields.phone),
  email: Type.Optional(venueFields.email),
  address: Type.Optional(venueFields.address),
  name_ne: venueFields.name_ne,
  address_ne: venueFields.address_ne,
  city: Type.Optional(venueFields.city),
  state: Type.Optional(venueFields.state),
  latitude: Type.Optional(Latitude),
  longitude: Type.Optional(Longitude),
  opening_time: Type.Optional(ClockInput),
  closing_time: Type.Optional(ClockInput),
  is_active: Type.Optional(Type.Boolean()),
  free_cancellation_hours: Type.Optional(FreeCancellationHours),
  ...bookingRuleFields,
  ...taxIdentityFields,
  amenities: Type.Optional(IdList),
  'amenities[]': Type.Optional(IdList),
  thumbnail: Type.Optional(Upload),
  gallery: Type.Optional(Upload),
  'gallery[]': Type.Optional(Upload),
  owner_id: Type.Optional(Type.Integer({ minimum: 1, description: 'super_admin only' })),
})

export const ImageUploadBody = Type.Object({
  image: Upload,
  collection: Type.Optional({ ...ImageCollectionEnum.request, default: 'gallery' }),
})

export const VerificationRequestBody = Type.Object({ note: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))) })
export const VerificationRejectBody = Type.Object({ reason: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))) })

/** The roles an owner assigns at a venue. */
const StaffRoleEnum = namedEnum('StaffRole', ['manager', 'staff'])

export const StaffBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 255, format: 'email' }),
  role: StaffRoleEnum.request,
})

export const StaffMemberSchema = named(
  'StaffMember',
  Type.Object({
    id: Type.Integer({ description: 'User id' }),
    name: Type.String(),
    email: Type.String(),
    phone: Nullable(Type.String()),
    role: StaffRoleEnum.response,
    assigned_at: DateTime,
  }),
)

export const HolidayBody = Type.Object({
  date: DateInput,
  name: Type.String({ minLength: 1, maxLength: 255 }),
})

export const HolidaySchema = named(
  'Holiday',
  Type.Object({
    id: Type.Integer(),
    venue_id: Type.Integer(),
    date: Type.String({ description: 'YYYY-MM-DD' }),
    name: Type.String(),
    created_at: DateTime,
  }),
)

const SportCategoryEnum = namedEnum('SportCategory', ['indoor', 'outdoor'])

export const SportFullSchema = named(
  'Sport',
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    name_ne: Nullable(Type.String({ description: 'The name in Nepali (Devanagari); null when none is set' })),
    slug: Type.String(),
    key: Type.String(),
    label: Type.String(),
    category: SportCategoryEnum.response,
  }),
)

export const AmenityBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  name_ne: Type.Optional(NepaliName(100)),
  icon: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
})
export const AmenityUpdateBody = Type.Partial(AmenityBody)

export const SportBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  name_ne: Type.Optional(NepaliName(100)),
  slug: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' })),
  key: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9_]+$' })),
  label: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  category: Type.Optional(SportCategoryEnum.request),
})
export const SportUpdateBody = Type.Partial(SportBody)

export const InvitationStatusEnum = namedEnum('InvitationStatus', ['pending', 'accepted', 'expired'])

export const InvitationSchema = named(
  'VenueInvitation',
  Type.Object({
    id: Type.Integer(),
    venue: Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      name_ne: Nullable(Type.String({ description: "The venue's name in Nepali; null when none is set" })),
      slug: Type.String(),
    }),
    email: Type.String(),
    role: StaffRoleEnum.response,
    status: InvitationStatusEnum.response,
    valid: Type.Boolean({ description: 'Whether the invitation can still be accepted (pending and not expired)' }),
    expires_at: DateTime,
    accepted_at: Nullable(DateTime),
    invited_at: DateTime,
    has_account: Type.Boolean({
      description:
        'Whether a Courtside account has the invited email: it accepts signed in (POST /me/invitations/{id}/accept); ' +
        'otherwise the invitee sets a name and password (POST /invitations/{token}/accept)',
    }),
  }),
)

export const InvitationIdParams = Type.Object({
  venue: Type.String({ description: 'Venue id or slug' }),
  invitation: Type.String({ description: 'Invitation id' }),
})

export const InvitationParams = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 255, description: 'The token of the mailed invitation link' }),
})

export const AcceptInvitationBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  password: Type.String({ minLength: 8, maxLength: 255 }),
  password_confirmation: Type.String({ maxLength: 255 }),
  device_name: Type.Optional(
    Type.String({ maxLength: 255, description: 'Name of this device; the User-Agent when absent' }),
  ),
})

export const AcceptInvitationResponse = Type.Object({ message: Type.String(), token: Type.String(), data: UserSchema })
