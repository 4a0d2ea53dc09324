import type { AppContext } from '../../../lib/context.ts'
import { ESEWA_FORM_PATH, esewaDriver } from './esewa.ts'
import { fonepayDriver } from './fonepay.ts'
import { fetchTransport } from './http.ts'
import { khaltiDriver } from './khalti.ts'
import type { GatewayDriver, GatewayName, Transport } from './types.ts'

export * from './types.ts'

/** Where the in-service sandbox of each gateway lives, below APP_URL. */
export const SANDBOX_PREFIX = '/api/payments/sandbox'

export interface Gateways {
  driver(name: GatewayName): GatewayDriver
  callbackUrl(name: GatewayName): string
  /** Where the eSewa checkout page POSTs its form (eSewa's form URL, or the sandbox's). */
  esewaFormUrl: string
}

/**
 * The three drivers, wired for PAYMENT_DRIVER: `live` talks to the configured base URLs over the
 * network; `sandbox` points the same drivers at the sandbox routes of this service and reaches
 * them in-process through `sandbox` (the routes answer the request themselves, so a fresh clone, and
 * the tests, need no listening port and no internet).
 */
export function createGateways(ctx: Pick<AppContext, 'config' | 'clock' | 'zone'>, sandbox: Transport): Gateways {
  const { config } = ctx
  const live = config.gateways.driver === 'live'
  const sandboxBase = (name: GatewayName) => `${config.appUrl}${SANDBOX_PREFIX}/${name}`
  const transport: Transport = live ? fetchTransport : sandbox
  const g = config.gateways
  const drivers: Record<GatewayName, GatewayDriver> = {
    // Both modes send the browser to our checkout page, which POSTs the form as eSewa requires.
    gateway_1: esewaDriver(
      live ? g.esewa : { ...g.esewa, baseUrl: sandboxBase('gateway_1'), statusUrl: sandboxBase('gateway_1') },
      transport,
      `${config.appUrl}/api/payments/gateway_1/checkout`,
    ),
    gateway_2: khaltiDriver(
      live ? g.khalti : { ...g.khalti, baseUrl: sandboxBase('gateway_2') },
      transport,
      config.appUrl,
    ),
    gateway_3: fonepayDriver(live ? g.fonepay : { ...g.fonepay, baseUrl: sandboxBase('gateway_3') }, transport, () =>
      ctx.zone.today(ctx.clock.now()),
    ),
  }
  return {
    driver: (name) => drivers[name],
    callbackUrl: (name) => `${config.appUrl}/api/payments/${name}/callback`,
    esewaFormUrl: `${live ? g.esewa.baseUrl : sandboxBase('gateway_1')}${ESEWA_FORM_PATH}`,
  }
}
