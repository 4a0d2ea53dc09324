import type { Config } from '../../config.ts'
import { Invalid } from '../../lib/errors.ts'

// Where a payment or a top-up sends the customer back (`return_url`, followed by the gateway
// callback's 302): only under APP_URL or a prefix of RETURN_URL_ALLOWLIST (an app's deep-link
// scheme such as `courtside://`, another web origin of ours). Anything else would make the callback
// an open redirect: a link that starts at our domain and ends wherever its author chose.

const WEB = /^https?:$/
// No control characters, spaces or backslashes: browsers read `https:\\evil.test` as a host.
function unsafe(url: string): boolean {
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i)
    if (c <= 0x20 || c === 0x7f || c === 0x5c) return true
  }
  return false
}

function under(prefix: string, candidate: string): boolean {
  const p = new URL(prefix)
  if (WEB.test(p.protocol)) {
    const c = new URL(candidate)
    if (c.origin !== p.origin || c.username !== '' || c.password !== '') return false
    const base = p.pathname.endsWith('/') ? p.pathname : `${p.pathname}/`
    const path = c.pathname.endsWith('/') ? c.pathname : `${c.pathname}/`
    return path.startsWith(base)
  }
  // A custom scheme (courtside://…): the text itself, its scheme in any case.
  const colon = candidate.indexOf(':')
  return `${candidate.slice(0, colon).toLowerCase()}${candidate.slice(colon)}`.startsWith(prefix)
}

/** Whether `url` is a place we may send a customer back to. */
export function isAllowedReturnUrl(config: Pick<Config, 'appUrl' | 'returnUrlAllowlist'>, url: string): boolean {
  if (unsafe(url) || !URL.canParse(url)) return false
  return [config.appUrl, ...config.returnUrlAllowlist].some((prefix) => under(prefix, url))
}

/** 422 on `return_url` unless it is absent or allowed. */
export function checkReturnUrl(config: Pick<Config, 'appUrl' | 'returnUrlAllowlist'>, url: string | undefined) {
  if (url === undefined) return
  if (!URL.canParse(url)) throw new Invalid('return_url', 'The return url field must be a valid URL.')
  if (!isAllowedReturnUrl(config, url)) {
    throw new Invalid(
      'return_url',
      'The return url field must be an address of this service (APP_URL) or of an allowed app (RETURN_URL_ALLOWLIST).',
    )
  }
}
