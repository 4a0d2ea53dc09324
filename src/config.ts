// Configuration from environment variables, validated once at start.
// Every variable and its default is listed in .env.example and the README.

import { isIP } from 'node:net'
import { fileURLToPath } from 'node:url'
import { formatMoney, toPaisa } from './lib/money.ts'

export interface Config {
  env: 'development' | 'production' | 'test'
  port: number
  host: string
  appUrl: string
  appKey: string
  /** IRD_CBMS_URL: IRD's Central Billing Monitoring System (docs/payments.md, "Receipts and IRD"). */
  irdCbmsUrl: string
  /** The platform as a seller: its monthly commission invoices to venues (PLATFORM_LEGAL_NAME, PLATFORM_PAN). */
  platform: { legalName: string; pan: string | undefined }
  timezone: string
  databaseUrl: string | undefined
  /** Connections per instance to the PostgreSQL server. */
  databasePoolSize: number
  /** Named prepared statements (plans cached per connection); off behind a transaction-mode pooler. */
  databasePrepare: boolean
  dataDir: string
  /** DEMO_DATA: load the demo data at the first start of an empty embedded database (development only). */
  demoData: boolean
  /** The built staff console (`npm run build`), served at /console (docs/console.md). */
  consoleDir: string
  /** The built customer web app (`npm run build`), served at / (docs/web.md). */
  webDir: string
  /**
   * MAP_TILE_URL: the map tiles of the console's location picker, an http(s) template with {z}, {x}
   * and {y} (e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png); unset: the map has no tiles and
   * the marker is still placed by click or drag (docs/console.md, "Location").
   */
  mapTileUrl: string | undefined
  /** MAP_ATTRIBUTION: the credit the tile provider asks for, shown on the map. */
  mapAttribution: string
  redisUrl: string | undefined
  logLevel: string
  /** LOG_BUFFER_BYTES: log lines written in batches of this size or every second by the main thread; 0 (default) is pino's own destination (src/lib/log-destination.ts). */
  logBufferBytes: number
  superAdminEmail: string | undefined
  superAdminPassword: string | undefined
  bookingHoldMinutes: number
  /** How long a waitlist offer (a pending booking) is held for the customer it is offered to. */
  waitlistOfferMinutes: number
  /** SPLIT_PAY_BEFORE_MINUTES: a split booking's shares are due this long before its start (docs/payments.md, "Split payment"). */
  splitPayBeforeMinutes: number
  /** An `initiated` gateway payment is first asked about at its gateway this long after creation. */
  paymentReconcileAfterSeconds: number
  /** A gateway payment failed here is asked about again at its gateway for this long after creation. */
  paymentRecheckHours: number
  rateLimits: { register: number; emailResend: number; login: number; otp: number; default: number }
  rateLimitEnabled: boolean
  // --- The edge: who the client is, per-account limits, timeouts (docs/deployment.md) ---
  /** Fastify's trustProxy: false (socket address), a hop count, or the proxies' addresses/CIDRs. */
  trustProxy: boolean | number | string[]
  /** Failed logins per account identifier a minute, and OTP sends per recipient a minute, from any address. */
  accountLimits: { login: number; otpIdentifier: number }
  /** Prefix of every rate-limit key in Redis (several deployments can share one Redis). */
  rateLimitPrefix: string
  /** Time a client has to send a whole request (headers and body) before a 408. */
  requestTimeoutMs: number
  /** Time a client has to send the request headers. */
  headersTimeoutMs: number
  argon2MemoryKib: number
  mail: { driver: 'log' | 'smtp'; from: string; smtpUrl: string | undefined }
  sms: { driver: 'log' | 'http'; httpUrl: string | undefined; httpToken: string | undefined }
  push: { driver: 'log' | 'fcm'; fcmServiceAccount: string | undefined }
  outboxFile: string
  uploadsDir: string
  /** Uploaded images with more pixels (width × height) than this are refused (422). */
  maxImagePixels: number
  /**
   * Where a payment or top-up may send the customer back (`return_url`): under APP_URL or one of
   * these prefixes (RETURN_URL_ALLOWLIST, e.g. an app's `courtside://`).
   */
  returnUrlAllowlist: string[]
  firebase: Record<
    'api_key' | 'auth_domain' | 'project_id' | 'storage_bucket' | 'messaging_sender_id' | 'app_id' | 'vapid_key',
    string
  >
  social: Record<'provider_1' | 'provider_2' | 'provider_3', SocialProviderConfig>
  gateways: {
    driver: 'sandbox' | 'live'
    esewa: { baseUrl: string; statusUrl: string; productCode: string; secretKey: string }
    khalti: { baseUrl: string; secretKey: string }
    fonepay: { baseUrl: string; merchantCode: string; secretKey: string }
  }
  jobsEnabled: boolean
  jobsPollMs: number
  /** Per-instance read cache lifetime (availability, guest catalogue); 0 turns the cache off. */
  cacheTtlMs: number
  /** The read cache's memory budget in MiB (estimated), CACHE_MAX_MB. */
  cacheMaxMb: number
  /** V8's old-generation growing factor as a percentage over 1 (src/lib/heap.ts); 0 keeps V8's own. */
  heapGrowthPercent: number
  /** Comment heartbeats on the desk's event streams (GET /venues/{venue}/events), ms. */
  deskHeartbeatMs: number
  /** Bearer token GET /metrics requires; unset leaves it open (production refuses to start then, unless metricsPublic). */
  metricsToken: string | undefined
  /** METRICS_PUBLIC: /metrics is served without a token in production, the network being private. */
  metricsPublic: boolean
  /** The largest extra charge staff may add to one booking, paisa (MAX_CHARGE_AMOUNT). */
  maxChargeAmount: number
  /** A cash-back above this needs an owner's or manager's approval before staff pay it out, paisa (CASH_BACK_APPROVAL_AMOUNT). */
  cashBackApprovalAmount: number
  /** Venues one owner may create a day (super_admin is not counted). */
  venueCreatePerDay: number
  /** Waitlist entries (waiting or offered) one customer may hold at a time. */
  maxWaitlistEntries: number
  /** Holds and series (docs/bookings.md, "Unpaid bookings and series"): what one customer may hold unpaid. */
  unpaid: {
    /** MAX_UNPAID_BOOKINGS: unpaid future bookings a customer may hold (court and indoor; a series counts once). */
    maxBookings: number
    /** MAX_ACTIVE_SERIES: the customer's series with unpaid weeks. */
    maxSeries: number
    /** SERIES_PAY_BEFORE_HOURS: a later week of a customer's series is released unless paid this long before its start. */
    seriesPayBeforeHours: number
  }
  /** Commission on online money for venues without a rate of their own, in hundredths of a percent (PLATFORM_COMMISSION_PERCENT). */
  platformCommissionBasisPoints: number
  /** On SIGTERM: how long in-flight requests and claimed jobs get before the process exits anyway. */
  shutdownGraceSeconds: number
  /** Webhook deliveries (docs/webhooks.md): may they reach loopback/private addresses, and the request timeout. */
  webhooks: { allowPrivate: boolean; timeoutMs: number }
  /** Production settings explicitly opted into that real customers must not meet: logged at warn at every start. */
  startWarnings: string[]
}

export interface SocialProviderConfig {
  name: string
  clientId: string | undefined
  clientSecret: string | undefined
  redirectUrl: string | undefined
  authorizeUrl: string
  tokenUrl: string
  userinfoUrl: string
  /** Keys that sign the provider's ID tokens, and the issuer they name; empty: no ID token is trusted. */
  jwksUrl: string
  issuer: string
  scope: string
}

export class ConfigError extends Error {}

/** Ends a process that could not start: one line for a ConfigError (settings, database, lock), the error otherwise. */
export function exitOnStartError(err: unknown): never {
  console.error(err instanceof ConfigError ? `Configuration error: ${err.message}` : err)
  process.exit(1)
}

type Env = Record<string, string | undefined>

/** What is wrong with the settings being read (loadConfig): every one is listed at once, not the first. */
let collected: string[] | null = null

/** A setting is wrong: noted (while loadConfig reads them all) with `fallback` standing in, else thrown. */
function bad<T>(message: string, fallback: T): T {
  if (collected === null) throw new ConfigError(message)
  collected.push(message)
  return fallback
}

function str(env: Env, key: string, fallback: string): string {
  const v = env[key]
  return v === undefined || v === '' ? fallback : v
}

function opt(env: Env, key: string): string | undefined {
  const v = env[key]
  return v === undefined || v === '' ? undefined : v
}

function int(env: Env, key: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[key]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min || n > max) {
    return bad(`${key} must be an integer between ${min} and ${max}, got "${raw}"`, fallback)
  }
  return n
}

function oneOf<T extends string>(env: Env, key: string, values: readonly T[], fallback: T): T {
  const raw = str(env, key, fallback)
  if (!values.includes(raw as T)) return bad(`${key} must be one of ${values.join(', ')}, got "${raw}"`, fallback)
  return raw as T
}

function bool(env: Env, key: string, fallback: boolean): boolean {
  const raw = env[key]
  if (raw === undefined || raw === '') return fallback
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false
  return bad(`${key} must be true or false, got "${raw}"`, fallback)
}

/** An NPR amount setting ("100000.00", "500"): at least 0.01, at most 10,000,000.00, two decimals at most; paisa. */
/** A percentage 0–100 with at most two decimals, as hundredths of a percent (10.5 → 1050). */
function percent(env: Env, key: string, fallback: number): number {
  const raw = env[key]
  if (raw === undefined || raw === '') return fallback
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(raw.trim()) || Number(raw) > 100) {
    return bad(`${key} must be a percentage between 0 and 100 with at most 2 decimals, got "${raw}"`, fallback)
  }
  return Math.round(Number(raw) * 100)
}

function money(env: Env, key: string, fallback: number): number {
  const raw = env[key]
  if (raw === undefined || raw === '') return fallback
  let paisa: number | undefined
  try {
    paisa = toPaisa(raw)
  } catch {}
  if (paisa === undefined || paisa < 1 || paisa > 1_000_000_000) {
    return bad(
      `${key} must be an amount between 0.01 and 10000000.00 with at most 2 decimals, got "${raw}" (default ${formatMoney(fallback)})`,
      fallback,
    )
  }
  return paisa
}

/** MAP_TILE_URL: an absolute http(s) URL template naming {z}, {x} and {y}; unset is none. */
function tileUrl(env: Env): string | undefined {
  const raw = opt(env, 'MAP_TILE_URL')
  if (raw === undefined) return undefined
  let scheme = ''
  try {
    scheme = new URL(raw.replace(/\{[a-z]\}/g, '0')).protocol
  } catch {
    // reported below
  }
  if ((scheme !== 'http:' && scheme !== 'https:') || !['{z}', '{x}', '{y}'].every((p) => raw.includes(p))) {
    return bad(`MAP_TILE_URL must be an http(s) URL template with {z}, {x} and {y}, got "${raw}"`, undefined)
  }
  return raw
}

function url(env: Env, key: string, fallback: string): string {
  const raw = str(env, key, fallback)
  try {
    new URL(raw)
  } catch {
    return bad(`${key} must be an absolute URL, got "${raw}"`, fallback)
  }
  return raw.replace(/\/+$/, '')
}

// --- The edge ---

const PROXY_KEYWORDS = ['loopback', 'linklocal', 'uniquelocal']

/**
 * RETURN_URL_ALLOWLIST: comma-separated prefixes a `return_url` may start with besides APP_URL.
 * Each is a URL with a scheme (`courtside://`, `https://app.example.com/`); a web origin without a
 * path gets a trailing slash, so `https://app.example.com` does not also allow
 * `https://app.example.com.evil.test`.
 */
function returnUrlAllowlist(raw: string | undefined): string[] {
  const entries = (raw ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
  return entries.flatMap((entry) => {
    const m = /^([a-z][a-z0-9+.-]*):(.*)$/i.exec(entry)
    if (!m || !URL.canParse(entry) || m[2] === '' || /^(javascript|data|vbscript|file):/i.test(entry)) {
      return bad(
        `RETURN_URL_ALLOWLIST must be a comma-separated list of URL prefixes with a scheme (courtside://, https://app.example.com/), got "${entry}"`,
        [],
      )
    }
    const scheme = m[1].toLowerCase()
    const rest = m[2]
    if ((scheme === 'http' || scheme === 'https') && /^\/\/[^/?#]+$/.test(rest)) return [`${scheme}:${rest}/`]
    return [`${scheme}:${rest}`]
  })
}

/** TRUST_PROXY: unset or false, true (any proxy; only when nothing else can reach the port), a hop count, or addresses/CIDRs. */
function trustProxy(raw: string | undefined): Config['trustProxy'] {
  const value = raw?.trim() ?? ''
  if (value === '' || value === 'false') return false
  if (value === 'true') return true
  if (/^\d+$/.test(value)) {
    const hops = Number(value)
    if (hops < 1 || hops > 32) return bad(`TRUST_PROXY hop count must be between 1 and 32, got "${raw}"`, false)
    return hops
  }
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
  for (const entry of entries) {
    if (PROXY_KEYWORDS.includes(entry)) continue
    const [address, bits, extra] = entry.split('/')
    const family = isIP(address)
    const maxBits = family === 6 ? 128 : 32
    const bitsOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits)
    if (family === 0 || !bitsOk || extra !== undefined) {
      return bad(
        `TRUST_PROXY must be true, false, a hop count or a comma-separated list of addresses/CIDRs, got "${raw}"`,
        false,
      )
    }
  }
  return entries
}

function timeouts(env: Env): Pick<Config, 'requestTimeoutMs' | 'headersTimeoutMs'> {
  const requestTimeoutMs = int(env, 'REQUEST_TIMEOUT_MS', 60_000, 1000, 3_600_000)
  // Node refuses a headers timeout longer than the request timeout.
  const headersTimeoutMs = int(env, 'HEADERS_TIMEOUT_MS', Math.min(20_000, requestTimeoutMs), 1000, requestTimeoutMs)
  return { requestTimeoutMs, headersTimeoutMs }
}

const socialDefaults = {
  provider_1: {
    name: 'google',
    authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    userinfoUrl: 'https://openidconnect.googleapis.com/v1/userinfo',
    jwksUrl: 'https://www.googleapis.com/oauth2/v3/certs',
    issuer: 'https://accounts.google.com',
    scope: 'openid email profile',
  },
  provider_2: {
    name: 'facebook',
    authorizeUrl: 'https://www.facebook.com/v19.0/dialog/oauth',
    tokenUrl: 'https://graph.facebook.com/v19.0/oauth/access_token',
    userinfoUrl: 'https://graph.facebook.com/me?fields=id,name,email',
    jwksUrl: '',
    issuer: '',
    scope: 'email public_profile',
  },
  provider_3: {
    name: 'apple',
    authorizeUrl: 'https://appleid.apple.com/auth/authorize',
    tokenUrl: 'https://appleid.apple.com/auth/token',
    userinfoUrl: '',
    jwksUrl: 'https://appleid.apple.com/auth/keys',
    issuer: 'https://appleid.apple.com',
    scope: 'openid name email',
  },
} as const

/** The public UAT credentials every integration guide prints: never live in production. */
const GATEWAY_TEST_VALUES: Record<string, string> = {
  ESEWA_PRODUCT_CODE: 'EPAYTEST',
  ESEWA_SECRET_KEY: '8gBm/:&EnhH.1/q',
  KHALTI_SECRET_KEY: 'test_secret_key',
  FONEPAY_MERCHANT_CODE: 'NBQM',
  FONEPAY_SECRET_KEY: 'a7e3512f5032480a83137793cb2021dc',
}
const GATEWAY_URLS = ['APP_URL', 'ESEWA_BASE_URL', 'ESEWA_STATUS_URL', 'KHALTI_BASE_URL', 'FONEPAY_BASE_URL']

/** Live payments in production need real keys and explicit URLs (the defaults are UAT hosts). */
function checkLiveGateways(env: Env) {
  const missing = GATEWAY_URLS.filter((key) => !opt(env, key))
  const test = Object.keys(GATEWAY_TEST_VALUES).filter(
    (key) => (opt(env, key) ?? GATEWAY_TEST_VALUES[key]) === GATEWAY_TEST_VALUES[key],
  )
  const problems = [
    missing.length ? `set ${missing.join(', ')}` : '',
    test.length ? `set real (not the public test) values for ${test.join(', ')}` : '',
  ].filter(Boolean)
  if (problems.length) bad(`PAYMENT_DRIVER=live in production: ${problems.join('; ')}`, undefined)
}

/** Drivers that could not send a single message are refused at start, not at the first send. */
function refuseUnusable(env: Env) {
  if (str(env, 'MAIL_DRIVER', 'log') === 'smtp' && !/^smtps?:\/\/[^/]/.test(str(env, 'SMTP_URL', ''))) {
    bad('MAIL_DRIVER=smtp needs SMTP_URL (smtp:// or smtps://)', undefined)
  }
  if (str(env, 'SMS_DRIVER', 'log') === 'http' && !/^https?:\/\/[^/]/.test(str(env, 'SMS_HTTP_URL', ''))) {
    bad('SMS_DRIVER=http needs SMS_HTTP_URL (http:// or https://)', undefined)
  }
  if (str(env, 'PUSH_DRIVER', 'log') === 'fcm') {
    let account: Record<string, unknown> | null = null
    try {
      account = JSON.parse(str(env, 'FCM_SERVICE_ACCOUNT', 'null'))
    } catch {}
    if (!['project_id', 'client_email', 'private_key'].every((k) => typeof account?.[k] === 'string')) {
      bad(
        'PUSH_DRIVER=fcm needs FCM_SERVICE_ACCOUNT: the JSON of a Firebase service account (project_id, client_email, private_key)',
        undefined,
      )
    }
  }
}

/**
 * Production never falls back to a stand-in: the in-service sandbox gateways (anyone completes a payment
 * without paying) and the log drivers (mail and SMS, one-time codes included, written to OUTBOX_FILE)
 * need an explicit opt-in there, for a demo or staging, and /metrics needs METRICS_TOKEN unless
 * METRICS_PUBLIC=true says the network it is served on is private. Returns the warnings the opt-ins call for.
 */
function checkProductionStandIns(env: Env): string[] {
  const problems: string[] = []
  const warnings: string[] = []
  const payment = opt(env, 'PAYMENT_DRIVER')
  if (payment === undefined || payment === 'sandbox') {
    if (bool(env, 'PAYMENT_SANDBOX_IN_PRODUCTION', false)) {
      warnings.push(
        'PAYMENT_SANDBOX_IN_PRODUCTION=true: payments go to the in-service sandbox gateways, where anyone completes a ' +
          'payment or wallet top-up without paying. For demos and staging only: set PAYMENT_DRIVER=live for real customers',
      )
    } else {
      problems.push(
        `${payment === undefined ? 'PAYMENT_DRIVER must be set in production' : 'PAYMENT_DRIVER=sandbox in production'}: ` +
          'the sandbox gateways let anyone complete a payment without paying; set PAYMENT_DRIVER=live ' +
          '(docs/payments.md), or PAYMENT_SANDBOX_IN_PRODUCTION=true for a demo or staging',
      )
    }
  }
  const logged = (['MAIL_DRIVER', 'SMS_DRIVER', 'PUSH_DRIVER'] as const).filter((key) => str(env, key, 'log') === 'log')
  if (logged.length > 0) {
    const channels = logged.map((key) => `${key}=log`).join(', ')
    if (bool(env, 'OUTBOX_LOG_IN_PRODUCTION', false)) {
      warnings.push(
        `OUTBOX_LOG_IN_PRODUCTION=true: ${channels}; those messages (one-time codes included) are written to ` +
          'OUTBOX_FILE and never sent. For demos and staging only',
      )
    } else {
      const real = { MAIL_DRIVER: 'MAIL_DRIVER=smtp', SMS_DRIVER: 'SMS_DRIVER=http', PUSH_DRIVER: 'PUSH_DRIVER=fcm' }
      problems.push(
        `${channels} in production (log is the default): messages, one-time codes included, would be written to ` +
          `OUTBOX_FILE instead of sent; set ${logged.map((key) => real[key]).join(', ')}, or ` +
          'OUTBOX_LOG_IN_PRODUCTION=true for a demo or staging',
      )
    }
  }
  if (opt(env, 'METRICS_TOKEN') === undefined) {
    if (bool(env, 'METRICS_PUBLIC', false)) {
      warnings.push(
        'METRICS_PUBLIC=true: GET /metrics is served without a token (traffic, routes, payments); keep its port ' +
          'on a private network, or set METRICS_TOKEN',
      )
    } else {
      problems.push(
        'METRICS_TOKEN must be set in production: GET /metrics would show anyone the traffic, routes and payments; ' +
          'set METRICS_TOKEN (scrapers send it as a bearer token), or METRICS_PUBLIC=true when only a private ' +
          'network reaches the service',
      )
    }
  }
  if (problems.length) bad(problems.join('; '), undefined)
  return warnings
}

/**
 * The configuration from `env`. A ConfigError lists every wrong setting at once ("; " between
 * them), so a deployment is mended in one go rather than one restart per setting.
 */
export function loadConfig(env: Env = process.env): Config {
  collected = []
  try {
    const config = readConfig(env)
    if (collected.length > 0) throw new ConfigError(collected.join('; '))
    return config
  } finally {
    collected = null
  }
}

function readConfig(env: Env): Config {
  const nodeEnv = oneOf(env, 'NODE_ENV', ['development', 'production', 'test'] as const, 'development')
  if (nodeEnv === 'production' && env.PAYMENT_DRIVER === 'live') checkLiveGateways(env)
  const port = int(env, 'PORT', 8000, 0, 65535)
  const appUrl = url(env, 'APP_URL', `http://127.0.0.1:${port}`)
  const appKey = str(env, 'APP_KEY', 'courtside-development-key-change-me')
  if (nodeEnv === 'production' && appKey === 'courtside-development-key-change-me') {
    bad('APP_KEY must be set to a secret value in production', undefined)
  }
  const timezone = str(env, 'APP_TIMEZONE', 'Asia/Kathmandu')
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone })
  } catch {
    bad(`APP_TIMEZONE is not a known time zone: "${timezone}"`, undefined)
  }
  const dataDir = str(env, 'DATA_DIR', 'data')
  const databaseUrl = opt(env, 'DATABASE_URL')
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    bad('DATABASE_URL must start with postgres:// or postgresql://', undefined)
  }
  refuseUnusable(env)
  const startWarnings = nodeEnv === 'production' ? checkProductionStandIns(env) : []
  const social = {} as Config['social']
  for (const key of ['provider_1', 'provider_2', 'provider_3'] as const) {
    const P = key.toUpperCase()
    const d = socialDefaults[key]
    social[key] = {
      name: d.name,
      clientId: opt(env, `${P}_CLIENT_ID`),
      clientSecret: opt(env, `${P}_CLIENT_SECRET`),
      redirectUrl: opt(env, `${P}_REDIRECT_URL`) ?? `${appUrl}/api/auth/social/${key}/callback`,
      authorizeUrl: str(env, `${P}_AUTHORIZE_URL`, d.authorizeUrl),
      tokenUrl: str(env, `${P}_TOKEN_URL`, d.tokenUrl),
      userinfoUrl: str(env, `${P}_USERINFO_URL`, d.userinfoUrl),
      jwksUrl: str(env, `${P}_JWKS_URL`, d.jwksUrl),
      issuer: str(env, `${P}_ISSUER`, d.issuer),
      scope: str(env, `${P}_SCOPE`, d.scope),
    }
  }
  return {
    env: nodeEnv,
    port,
    host: str(env, 'HOST', '0.0.0.0'),
    appUrl,
    appKey,
    irdCbmsUrl: url(env, 'IRD_CBMS_URL', 'https://cbapi.ird.gov.np'),
    platform: { legalName: str(env, 'PLATFORM_LEGAL_NAME', 'Courtside'), pan: opt(env, 'PLATFORM_PAN') },
    timezone,
    databaseUrl,
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    databasePrepare: bool(env, 'DATABASE_PREPARE', true),
    dataDir,
    demoData: bool(env, 'DEMO_DATA', true),
    // From src/config.ts and from dist/config.js alike, the repository's dist/console.
    consoleDir: str(env, 'CONSOLE_DIR', fileURLToPath(new URL('../dist/console', import.meta.url))),
    webDir: str(env, 'WEB_DIR', fileURLToPath(new URL('../dist/web', import.meta.url))),
    mapTileUrl: tileUrl(env),
    mapAttribution: str(env, 'MAP_ATTRIBUTION', '© OpenStreetMap contributors'),
    redisUrl: opt(env, 'REDIS_URL'),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    // Opt-in (src/lib/log-destination.ts): a batch is written by the main thread, which a stalled
    // log reader would stall too.
    logBufferBytes: int(env, 'LOG_BUFFER_BYTES', 0, 0, 16000),
    superAdminEmail: opt(env, 'SUPER_ADMIN_EMAIL'),
    superAdminPassword: opt(env, 'SUPER_ADMIN_PASSWORD'),
    bookingHoldMinutes: int(env, 'BOOKING_HOLD_MINUTES', 15, 1, 24 * 60),
    waitlistOfferMinutes: int(env, 'WAITLIST_OFFER_MINUTES', 15, 1, 24 * 60),
    splitPayBeforeMinutes: int(env, 'SPLIT_PAY_BEFORE_MINUTES', 120, 0, 7 * 24 * 60),
    paymentReconcileAfterSeconds: int(env, 'PAYMENT_RECONCILE_AFTER_SECONDS', 300, 1, 24 * 3600),
    paymentRecheckHours: int(env, 'PAYMENT_RECHECK_HOURS', 72, 0, 30 * 24),
    rateLimits: {
      register: int(env, 'RATE_LIMIT_REGISTER', 10, 1),
      emailResend: int(env, 'RATE_LIMIT_EMAIL_RESEND', 6, 1),
      login: int(env, 'RATE_LIMIT_LOGIN', 5, 1),
      otp: int(env, 'RATE_LIMIT_OTP', 5, 1),
      default: int(env, 'RATE_LIMIT_DEFAULT', 60, 1),
    },
    rateLimitEnabled: bool(env, 'RATE_LIMIT_ENABLED', true),
    // --- The edge ---
    trustProxy: trustProxy(env.TRUST_PROXY),
    accountLimits: {
      login: int(env, 'RATE_LIMIT_LOGIN_ACCOUNT', 10, 1),
      otpIdentifier: int(env, 'RATE_LIMIT_OTP_IDENTIFIER', 5, 1),
    },
    rateLimitPrefix: str(env, 'RATE_LIMIT_PREFIX', 'courtside-rl:'),
    ...timeouts(env),
    argon2MemoryKib: int(env, 'ARGON2_MEMORY_KIB', 19456, 1024),
    mail: {
      driver: oneOf(env, 'MAIL_DRIVER', ['log', 'smtp'] as const, 'log'),
      from: str(env, 'MAIL_FROM', 'Courtside <no-reply@courtside.local>'),
      smtpUrl: opt(env, 'SMTP_URL'),
    },
    sms: {
      driver: oneOf(env, 'SMS_DRIVER', ['log', 'http'] as const, 'log'),
      httpUrl: opt(env, 'SMS_HTTP_URL'),
      httpToken: opt(env, 'SMS_HTTP_TOKEN'),
    },
    push: {
      driver: oneOf(env, 'PUSH_DRIVER', ['log', 'fcm'] as const, 'log'),
      fcmServiceAccount: opt(env, 'FCM_SERVICE_ACCOUNT'),
    },
    outboxFile: str(env, 'OUTBOX_FILE', `${dataDir}/outbox.jsonl`),
    uploadsDir: str(env, 'UPLOADS_DIR', `${dataDir}/uploads`),
    maxImagePixels: int(env, 'MAX_IMAGE_PIXELS', 40_000_000, 1, 1_000_000_000),
    returnUrlAllowlist: returnUrlAllowlist(env.RETURN_URL_ALLOWLIST),
    firebase: {
      api_key: str(env, 'FIREBASE_API_KEY', ''),
      auth_domain: str(env, 'FIREBASE_AUTH_DOMAIN', ''),
      project_id: str(env, 'FIREBASE_PROJECT_ID', ''),
      storage_bucket: str(env, 'FIREBASE_STORAGE_BUCKET', ''),
      messaging_sender_id: str(env, 'FIREBASE_MESSAGING_SENDER_ID', ''),
      app_id: str(env, 'FIREBASE_APP_ID', ''),
      vapid_key: str(env, 'FIREBASE_VAPID_KEY', ''),
    },
    social,
    gateways: {
      driver: oneOf(env, 'PAYMENT_DRIVER', ['sandbox', 'live'] as const, 'sandbox'),
      esewa: {
        baseUrl: url(env, 'ESEWA_BASE_URL', 'https://rc-epay.esewa.com.np'),
        statusUrl: url(env, 'ESEWA_STATUS_URL', 'https://rc.esewa.com.np'),
        productCode: str(env, 'ESEWA_PRODUCT_CODE', 'EPAYTEST'),
        secretKey: str(env, 'ESEWA_SECRET_KEY', '8gBm/:&EnhH.1/q'),
      },
      khalti: {
        baseUrl: url(env, 'KHALTI_BASE_URL', 'https://dev.khalti.com/api/v2'),
        secretKey: str(env, 'KHALTI_SECRET_KEY', 'test_secret_key'),
      },
      fonepay: {
        baseUrl: url(env, 'FONEPAY_BASE_URL', 'https://dev-clientapi.fonepay.com'),
        merchantCode: str(env, 'FONEPAY_MERCHANT_CODE', 'NBQM'),
        secretKey: str(env, 'FONEPAY_SECRET_KEY', 'a7e3512f5032480a83137793cb2021dc'),
      },
    },
    jobsEnabled: bool(env, 'JOBS_ENABLED', true),
    jobsPollMs: int(env, 'JOBS_POLL_MS', 1000, 10),
    cacheTtlMs: int(env, 'CACHE_TTL_MS', 30000, 0),
    cacheMaxMb: int(env, 'CACHE_MAX_MB', 64, 1, 65_536),
    heapGrowthPercent: int(env, 'HEAP_GROWTH_PERCENT', 100, 0, 300),
    deskHeartbeatMs: int(env, 'DESK_HEARTBEAT_MS', 15000, 10, 3_600_000),
    metricsToken: opt(env, 'METRICS_TOKEN'),
    metricsPublic: bool(env, 'METRICS_PUBLIC', false),
    maxChargeAmount: money(env, 'MAX_CHARGE_AMOUNT', 10_000_000),
    cashBackApprovalAmount: money(env, 'CASH_BACK_APPROVAL_AMOUNT', 500_000),
    venueCreatePerDay: int(env, 'VENUE_CREATE_PER_DAY', 3, 1, 1000),
    maxWaitlistEntries: int(env, 'MAX_WAITLIST_ENTRIES', 5, 1, 1000),
    unpaid: {
      maxBookings: int(env, 'MAX_UNPAID_BOOKINGS', 3, 1, 1000),
      maxSeries: int(env, 'MAX_ACTIVE_SERIES', 2, 1, 100),
      // A later week starts at least 7 days after the series is made: at most 144 h leaves a day to pay.
      seriesPayBeforeHours: int(env, 'SERIES_PAY_BEFORE_HOURS', 48, 0, 144),
    },
    platformCommissionBasisPoints: percent(env, 'PLATFORM_COMMISSION_PERCENT', 0),
    shutdownGraceSeconds: int(env, 'SHUTDOWN_GRACE_SECONDS', 15, 1, 3600),
    webhooks: {
      allowPrivate: bool(env, 'WEBHOOK_ALLOW_PRIVATE', nodeEnv !== 'production'),
      timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 5000, 100, 60_000),
    },
    startWarnings,
  }
}
