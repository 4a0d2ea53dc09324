import type { AppContext } from '../../lib/context.ts'
import { Invalid } from '../../lib/errors.ts'
import { CBMS_JOB, CBMS_MAX_ATTEMPTS } from './cbms.ts'
import * as repo from './repository/ird.ts'
import { sealSecret } from './secret.ts'

// A venue's CBMS account (PUT/GET /api/venues/{venue}/ird, owner) and its failed reports
// (docs/payments.md, "Receipts and IRD"). The password is sealed under the app key and never returned.

export interface IrdSettingsBody {
  enabled: boolean
  username: string
  password?: string
  seller_pan: string
}

export interface IrdStatus {
  configured: boolean
  enabled: boolean
  username: string | null
  seller_pan: string | null
  password_set: boolean
  pending: number
  failed: number
  failures: Array<{
    receipt_id: number
    receipt_number: string
    issued_on_bs: string
    code: number | null
    error: string | null
  }>
}

export async function irdStatus(ctx: AppContext, venueId: number): Promise<IrdStatus> {
  const s = await repo.settingsOf(ctx.db, venueId)
  const { pending, failed, failures } = await repo.syncProblems(ctx.db, venueId)
  return {
    configured: s !== undefined,
    enabled: s?.enabled ?? false,
    username: s?.username ?? null,
    seller_pan: s?.seller_pan ?? null,
    password_set: s !== undefined,
    pending,
    failed,
    failures: failures.map((f) => ({
      receipt_id: Number(f.id),
      receipt_number: f.receipt_number,
      issued_on_bs: f.issued_on_bs,
      code: f.last_code,
      error: f.last_error,
    })),
  }
}

/**
 * Sets the venue's CBMS account. CBMS is for VAT registered venues and the seller PAN is the venue's
 * own (422 otherwise); the first setting needs a password, later ones keep the stored one when none
 * is sent. Invoices issued from now on are reported; earlier ones are not (not_required).
 */
export async function saveIrdSettings(
  ctx: AppContext,
  userId: number,
  venue: { id: number; pan_number: string | null; vat_registered: boolean },
  body: IrdSettingsBody,
): Promise<IrdStatus> {
  const errors: Record<string, string[]> = {}
  if (body.enabled && !venue.vat_registered) errors.enabled = ['CBMS reporting is for VAT registered venues.']
  if (venue.pan_number !== body.seller_pan) errors.seller_pan = ["The seller PAN must be the venue's own PAN."]
  const current = await repo.settingsOf(ctx.db, venue.id)
  if (!current && !body.password) errors.password = ['The password field is required.']
  if (Object.keys(errors).length > 0) throw new Invalid(errors)
  const now = ctx.clock.now()
  const password_encrypted = body.password ? sealSecret(ctx.config.appKey, body.password) : current?.password_encrypted
  const values = {
    enabled: body.enabled,
    username: body.username.trim(),
    seller_pan: body.seller_pan,
    password_encrypted: password_encrypted as string,
    updated_by: userId,
    updated_at: now,
  }
  await repo.saveSettings(ctx.db, venue.id, values)
  return irdStatus(ctx, venue.id)
}

/** POST /venues/{venue}/ird/retry: the failed reports queued again (owner). Returns how many. */
export async function retryFailedReports(ctx: AppContext, venueId: number): Promise<number> {
  return ctx.db.transaction().execute(async (trx) => {
    const ids = await repo.reopenFailed(trx, venueId, ctx.clock.now())
    for (const id of ids) await ctx.jobs.enqueue(CBMS_JOB, { receipt_id: id }, { maxAttempts: CBMS_MAX_ATTEMPTS }, trx)
    return ids.length
  })
}

/** The venue's tax identity (PAN, VAT registration, legal name) as its books print it. */
export function venueTaxIdentity(ctx: AppContext, venueId: number) {
  return repo.taxIdentityOf(ctx.db, venueId)
}
