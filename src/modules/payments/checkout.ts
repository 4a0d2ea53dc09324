import { Type } from 'typebox'
import { internalCall } from '../../lib/rate-limit.ts'
import type { RouteApp } from '../../lib/route.ts'
import type { Gateways } from './gateways/index.ts'

// eSewa takes its payment form only as a browser POST. payment_url opens this page, which posts the
// signed fields on to eSewa's form URL (the sandbox's in sandbox mode). The sandbox's `simulate`
// shortcut (GET payment_url&simulate=success|failure|lost, no page) is served by submitting that same
// form in-process, as the browser would, and answering with the sandbox's redirect.

export function esewaCheckoutRoute(app: RouteApp, gateways: Gateways) {
  const { appUrl, gateways: config } = app.ctx.config
  const sandbox = config.driver === 'sandbox'
  app.get(
    '/payments/gateway_1/checkout',
    { schema: { hide: true, querystring: Type.Record(Type.String(), Type.String()) } },
    async (req, reply) => {
      const { simulate, ...fields } = req.query
      if (sandbox && simulate) {
        const res = await app.inject({
          method: 'POST',
          url: gateways.esewaFormUrl.slice(appUrl.length),
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...internalCall() },
          payload: new URLSearchParams({ ...fields, simulate }).toString(),
        })
        const location = res.headers.location
        if (res.statusCode === 302 && typeof location === 'string') return reply.redirect(location, 302)
        return reply.code(res.statusCode).type('text/html; charset=utf-8').send(res.body)
      }
      const inputs = Object.entries(fields)
        .map(([k, v]) => `<input type="hidden" name="${escapeAttr(k)}" value="${escapeAttr(String(v))}">`)
        .join('')
      return reply
        .type('text/html; charset=utf-8')
        .send(
          `<!doctype html><html><body onload="document.forms[0].submit()"><form method="POST" action="${escapeAttr(gateways.esewaFormUrl)}">${inputs}<noscript><button>Continue to eSewa</button></noscript></form></body></html>`,
        )
    },
  )
}

function escapeAttr(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
