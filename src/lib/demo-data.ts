// Demo data for `npm run seed`: people, venues in Kathmandu, Lalitpur and Pokhara with courts,
// weekly schedules, pricing rules, amenities and indoor games, and one open tournament.
// Money is in NPR here (converted to paisa when inserted); times are venue-local.

export const DEMO_PASSWORD = 'Demo@12345'

export interface DemoUser {
  key: 'admin' | 'owner1' | 'owner2' | 'staff' | 'customer'
  name: string
  email: string
  phone: string
  role: 'super_admin' | 'venue_owner' | 'staff' | 'customer'
  /** Front-desk staff: the slug of the venue they work at (venue_staff, role staff). */
  staffAt?: string
}

export const DEMO_USERS: DemoUser[] = [
  {
    key: 'admin',
    name: 'Courtside Admin',
    email: 'admin@courtside.test',
    phone: '+9779800000001',
    role: 'super_admin',
  },
  {
    key: 'owner1',
    name: 'Suman Shrestha',
    email: 'owner1@courtside.test',
    phone: '+9779800000002',
    role: 'venue_owner',
  },
  { key: 'owner2', name: 'Anita Gurung', email: 'owner2@courtside.test', phone: '+9779800000003', role: 'venue_owner' },
  {
    key: 'staff',
    name: 'Ramesh Karki',
    email: 'staff@courtside.test',
    phone: '+9779800000005',
    role: 'staff',
    staffAt: 'baneshwor-futsal-arena',
  },
  {
    key: 'customer',
    name: 'Bikash Thapa',
    email: 'customer@courtside.test',
    phone: '+9779800000004',
    role: 'customer',
  },
]

export interface DemoRule {
  type: 'standard' | 'peak' | 'off_peak' | 'holiday'
  day_of_week: number | null
  start_time: string
  end_time: string
  price: number
}

export interface DemoCourt {
  name: string
  sport: string // sports.key
  type: string
  capacity: number
  slot_minutes: number
  price: number
  description: string
  /** Weekly schedule overrides; days not listed use the venue hours. */
  schedules?: { day_of_week: number; open_time: string; close_time: string; is_closed?: boolean }[]
  rules: DemoRule[]
}

export interface DemoGame {
  name: string
  game_type: 'playstation' | 'chess' | 'ludo' | 'cards' | 'uno' | 'table_tennis' | 'carrom' | 'other'
  capacity: number
  slot_minutes: number
  price: number
  description: string
}

export interface DemoVenue {
  slug: string
  name: string
  /** The name and address in Nepali, as an owner may set them (docs/catalogue.md, "Names in Nepali"). */
  name_ne?: string
  owner: 'owner1' | 'owner2'
  city: 'Kathmandu' | 'Lalitpur' | 'Pokhara'
  state: string
  address: string
  address_ne?: string
  latitude: number
  longitude: number
  phone: string
  email: string
  opening_time: string
  closing_time: string
  verified: boolean
  description: string
  amenities: string[] // amenities.name
  /** Dates on which the courts' holiday pricing rules apply. */
  holidays?: { date: string; name: string }[]
  courts: DemoCourt[]
  games: DemoGame[]
}

/** The usual evening peak and early off-peak of a Kathmandu futsal, plus a festival-day rate. */
function futsalRules(base: number): DemoRule[] {
  return [
    { type: 'off_peak', day_of_week: null, start_time: '06:00', end_time: '09:00', price: base - 200 },
    { type: 'peak', day_of_week: null, start_time: '17:00', end_time: '21:00', price: base + 400 },
    { type: 'peak', day_of_week: 6, start_time: '06:00', end_time: '21:00', price: base + 500 },
    { type: 'holiday', day_of_week: null, start_time: '06:00', end_time: '22:00', price: base + 600 },
  ]
}

function futsal(name: string, price: number, extra: Partial<DemoCourt> = {}): DemoCourt {
  return {
    name,
    sport: 'futsal',
    type: 'futsal',
    capacity: 10,
    slot_minutes: 60,
    price,
    description: '5-a-side artificial turf with floodlights.',
    rules: futsalRules(price),
    ...extra,
  }
}

const saturdayLate = [{ day_of_week: 6, open_time: '07:00', close_time: '22:00' }]

export const DEMO_VENUES: DemoVenue[] = [
  {
    slug: 'baneshwor-futsal-arena',
    name: 'Baneshwor Futsal Arena',
    name_ne: 'बानेश्वर फुटसल एरेना',
    owner: 'owner1',
    city: 'Kathmandu',
    state: 'Bagmati',
    address: 'New Baneshwor, near Everest Hotel',
    address_ne: 'नयाँ बानेश्वर, एभरेस्ट होटल नजिक',
    latitude: 27.6915,
    longitude: 85.342,
    phone: '+97714780001',
    email: 'hello@baneshworfutsal.test',
    opening_time: '06:00',
    closing_time: '21:00',
    verified: true,
    description: 'Two covered futsal pitches in the heart of Baneshwor.',
    amenities: ['Parking', 'Changing Room', 'Shower', 'Drinking Water', 'Floodlights'],
    holidays: [
      { date: '2027-01-11', name: 'Prithvi Jayanti' },
      { date: '2027-02-19', name: 'Democracy Day' },
    ],
    courts: [futsal('Court A', 1500, { schedules: saturdayLate }), futsal('Court B', 1400)],
    games: [
      {
        name: 'PS5 Station 1',
        game_type: 'playstation',
        capacity: 4,
        slot_minutes: 60,
        price: 300,
        description: 'FIFA and more.',
      },
      {
        name: 'Carrom Board',
        game_type: 'carrom',
        capacity: 4,
        slot_minutes: 30,
        price: 150,
        description: 'Tournament-size board.',
      },
    ],
  },
  {
    slug: 'kalanki-sports-hub',
    name: 'Kalanki Sports Hub',
    name_ne: 'कलंकी स्पोर्ट्स हब',
    owner: 'owner1',
    city: 'Kathmandu',
    state: 'Bagmati',
    address: 'Kalanki Chowk, Ring Road',
    address_ne: 'कलंकी चोक, रिङरोड',
    latitude: 27.6933,
    longitude: 85.2816,
    phone: '+97714280002',
    email: 'info@kalankihub.test',
    opening_time: '06:00',
    closing_time: '21:00',
    verified: true,
    description: 'Futsal and basketball under one roof.',
    amenities: ['Parking', 'Changing Room', 'Drinking Water', 'Cafeteria'],
    courts: [
      futsal('Main Pitch', 1300),
      {
        name: 'Basketball Court',
        sport: 'basketball',
        type: 'basketball',
        capacity: 10,
        slot_minutes: 90,
        price: 1800,
        description: 'Full-size wooden court.',
        rules: [{ type: 'peak', day_of_week: null, start_time: '16:30', end_time: '21:00', price: 2200 }],
      },
    ],
    games: [],
  },
  {
    slug: 'maharajgunj-kicks',
    name: 'Maharajgunj Kicks',
    name_ne: 'महाराजगञ्ज किक्स',
    owner: 'owner1',
    city: 'Kathmandu',
    state: 'Bagmati',
    address: 'Maharajgunj, opposite Teaching Hospital',
    address_ne: 'महाराजगञ्ज, शिक्षण अस्पतालको अगाडि',
    latitude: 27.7369,
    longitude: 85.33,
    phone: '+97714720003',
    email: 'play@mkicks.test',
    opening_time: '06:00',
    closing_time: '22:00',
    verified: true,
    description: 'Rooftop futsal with a view of Shivapuri.',
    amenities: ['Changing Room', 'Drinking Water', 'Floodlights', 'Wi-Fi'],
    courts: [
      futsal('Rooftop Court', 1600, {
        schedules: [{ day_of_week: 2, open_time: '06:00', close_time: '22:00', is_closed: true }],
      }),
    ],
    games: [
      {
        name: 'Chess Table',
        game_type: 'chess',
        capacity: 2,
        slot_minutes: 60,
        price: 100,
        description: 'Wooden set with clock.',
      },
    ],
  },
  {
    slug: 'jhamsikhel-futsal',
    name: 'Jhamsikhel Futsal',
    name_ne: 'झम्सिखेल फुटसल',
    owner: 'owner2',
    city: 'Lalitpur',
    state: 'Bagmati',
    address: 'Jhamsikhel Road, Sanepa',
    address_ne: 'झम्सिखेल सडक, सानेपा',
    latitude: 27.6785,
    longitude: 85.3067,
    phone: '+97715520004',
    email: 'book@jhamelfutsal.test',
    opening_time: '06:00',
    closing_time: '21:00',
    verified: true,
    description: 'Friendly neighbourhood futsal in Jhamel.',
    amenities: ['Parking', 'Changing Room', 'Shower', 'Cafeteria', 'First Aid'],
    courts: [futsal('Court 1', 1400), futsal('Court 2', 1400)],
    games: [
      {
        name: 'Table Tennis Table',
        game_type: 'table_tennis',
        capacity: 4,
        slot_minutes: 30,
        price: 250,
        description: 'Olympic-grade table.',
      },
    ],
  },
  {
    slug: 'satdobato-sports-complex',
    name: 'Satdobato Sports Complex',
    name_ne: 'सातदोबाटो स्पोर्ट्स कम्प्लेक्स',
    owner: 'owner2',
    city: 'Lalitpur',
    state: 'Bagmati',
    address: 'Satdobato, near ANFA Complex',
    address_ne: 'सातदोबाटो, एन्फा कम्प्लेक्स नजिक',
    latitude: 27.6589,
    longitude: 85.3247,
    phone: '+97715540005',
    email: 'info@satdobatosports.test',
    opening_time: '06:00',
    closing_time: '21:00',
    verified: true,
    description: 'Futsal, badminton and cricket nets.',
    amenities: ['Parking', 'Changing Room', 'Shower', 'Drinking Water', 'Floodlights', 'First Aid'],
    courts: [
      futsal('Futsal Court', 1500),
      {
        name: 'Badminton Court',
        sport: 'badminton',
        type: 'badminton',
        capacity: 4,
        slot_minutes: 30,
        price: 600,
        description: 'Synthetic mat, indoor hall.',
        rules: [
          { type: 'peak', day_of_week: null, start_time: '17:00', end_time: '21:00', price: 800 },
          { type: 'off_peak', day_of_week: null, start_time: '10:00', end_time: '15:00', price: 500 },
        ],
      },
      {
        name: 'Cricket Nets',
        sport: 'cricket',
        type: 'cricket',
        capacity: 6,
        slot_minutes: 60,
        price: 1000,
        description: 'Two bowling lanes with a bowling machine.',
        rules: [],
      },
    ],
    games: [],
  },
  {
    slug: 'imadol-futsal-point',
    name: 'Imadol Futsal Point',
    name_ne: 'इमाडोल फुटसल पोइन्ट',
    owner: 'owner2',
    city: 'Lalitpur',
    state: 'Bagmati',
    address: 'Imadol Chowk, Mahalaxmi',
    address_ne: 'इमाडोल चोक, महालक्ष्मी',
    latitude: 27.6636,
    longitude: 85.3425,
    phone: '+97715200006',
    email: 'imadolfutsal@courtside.test',
    opening_time: '06:00',
    closing_time: '21:00',
    verified: true,
    description: 'Budget-friendly futsal with student discounts in the morning.',
    amenities: ['Parking', 'Drinking Water', 'Floodlights'],
    courts: [futsal('Imadol Court', 1200)],
    games: [
      {
        name: 'Ludo Corner',
        game_type: 'ludo',
        capacity: 4,
        slot_minutes: 30,
        price: 80,
        description: 'Board games while you wait.',
      },
    ],
  },
  {
    slug: 'lakeside-sports-pokhara',
    name: 'Lakeside Sports Pokhara',
    name_ne: 'लेकसाइड स्पोर्ट्स पोखरा',
    owner: 'owner2',
    city: 'Pokhara',
    state: 'Gandaki',
    address: 'Lakeside Road, Baidam',
    address_ne: 'लेकसाइड सडक, बैदाम',
    latitude: 28.2096,
    longitude: 83.9595,
    phone: '+97761460007',
    email: 'lakeside@courtside.test',
    opening_time: '07:00',
    closing_time: '21:00',
    verified: true,
    description: 'Futsal and volleyball steps from Phewa Lake.',
    amenities: ['Parking', 'Changing Room', 'Shower', 'Cafeteria', 'Wi-Fi'],
    courts: [
      futsal('Phewa Court', 1300),
      {
        name: 'Beach Volleyball',
        sport: 'volleyball',
        type: 'volleyball',
        capacity: 12,
        slot_minutes: 60,
        price: 900,
        description: 'Sand court, open air.',
        rules: [{ type: 'peak', day_of_week: 6, start_time: '07:00', end_time: '21:00', price: 1200 }],
      },
    ],
    games: [
      {
        name: 'PS5 Lounge',
        game_type: 'playstation',
        capacity: 4,
        slot_minutes: 60,
        price: 250,
        description: 'Big screen, four controllers.',
      },
    ],
  },
  {
    slug: 'chipledhunga-futsal',
    name: 'Chipledhunga Futsal',
    name_ne: 'चिप्लेढुङ्गा फुटसल',
    owner: 'owner2',
    city: 'Pokhara',
    state: 'Gandaki',
    address: 'Chipledhunga, New Road',
    address_ne: 'चिप्लेढुङ्गा, न्युरोड',
    latitude: 28.2183,
    longitude: 83.9856,
    phone: '+97761520008',
    email: 'chipledhunga@courtside.test',
    opening_time: '06:00',
    closing_time: '21:00',
    verified: true,
    description: 'Central Pokhara futsal with covered seating.',
    amenities: ['Changing Room', 'Drinking Water', 'Floodlights'],
    courts: [futsal('Court North', 1200), futsal('Court South', 1200, { slot_minutes: 90 })],
    games: [],
  },
  {
    slug: 'thamel-street-futsal',
    name: 'Thamel Street Futsal',
    name_ne: 'ठमेल स्ट्रिट फुटसल',
    owner: 'owner1',
    city: 'Kathmandu',
    state: 'Bagmati',
    address: 'Chaksibari Marg, Thamel',
    address_ne: 'छक्सीबारी मार्ग, ठमेल',
    latitude: 27.7154,
    longitude: 85.3123,
    phone: '+97714700009',
    email: 'thamelfutsal@courtside.test',
    opening_time: '07:00',
    closing_time: '20:00',
    verified: false,
    description: 'Opening soon: awaiting verification.',
    amenities: ['Drinking Water'],
    courts: [futsal('Thamel Court', 1400)],
    games: [],
  },
]

export const DEMO_TOURNAMENT = {
  venue: 'baneshwor-futsal-arena',
  name: 'Baneshwor Winter Futsal Cup',
  description: 'Eight-team knockout for weekend warriors. Kick-off in a month.',
  format: 'knockout' as const,
  sport_type: 'futsal',
  max_teams: 8,
  registration_fee: 3000,
  prize_pool: 50000,
  /** Days from the seed date. */
  starts_in_days: 30,
  lasts_days: 2,
  teams: [
    {
      name: 'Baneshwor Blasters',
      captain_name: 'Bikash Thapa',
      contact_phone: '+9779800000004',
      players: ['Bikash Thapa', 'Rohan KC', 'Sujan Rai', 'Prabin Tamang', 'Nabin Karki'],
    },
    {
      name: 'Koteshwor Kings',
      captain_name: 'Ramesh Adhikari',
      contact_phone: '+9779811111111',
      players: ['Ramesh Adhikari', 'Kiran Magar', 'Dipesh Lama', 'Anil Basnet', 'Saroj Bhandari'],
    },
  ],
}

/** The drawn photos of src/lib/demo-photos (scripts/demo-photos.mjs), by name without `.webp`. */
const PHOTO_NAMES = new Set([
  'futsal-day',
  'futsal-evening',
  'futsal-hall',
  'basketball',
  'badminton',
  'cricket',
  'volleyball',
  'playstation',
  'carrom',
  'chess',
  'table_tennis',
  'ludo',
])
const FUTSAL_LOOKS = ['futsal-evening', 'futsal-day', 'futsal-hall']

/**
 * The photos the seed stores for a demo venue (file names in src/lib/demo-photos): one per sport of
 * its courts and per indoor game type, in that order; the first is its thumbnail, the rest its
 * gallery. Futsal pitches take one of three looks (floodlit, day, covered) so the cards differ.
 */
export function demoPhotos(v: DemoVenue): string[] {
  const index = DEMO_VENUES.findIndex((d) => d.slug === v.slug)
  const names = [
    ...v.courts.map((c) => (c.sport === 'futsal' ? FUTSAL_LOOKS[Math.max(0, index) % FUTSAL_LOOKS.length] : c.sport)),
    ...v.games.map((g) => g.game_type),
  ]
  return [...new Set(names)].filter((n) => PHOTO_NAMES.has(n)).map((n) => `${n}.webp`)
}
