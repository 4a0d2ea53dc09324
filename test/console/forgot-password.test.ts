import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { lastOtp } from '../accounts/helpers.ts'
import { axeViolations, PHONE, withConsole } from './browser.ts'

// Issue 51: "Forgot password?" on the console's sign-in: a one-time code by email (the contract's
// OTP flow) signs in, a new password is chosen, and the desk is signed in; on a phone and a desktop.

describe('console: forgot password (issue 51)', () => {
  const ui = withConsole({ env: { RATE_LIMIT_ENABLED: 'false' } })

  test('on a phone, a code by email and a new password sign the desk in', async () => {
    const context = await ui.browser.newContext({ viewport: PHONE })
    const p = await context.newPage()
    try {
      await p.goto(`${ui.server.url}/console/`)
      await p.getByRole('button', { name: 'Forgot password?' }).click()
      await p.getByRole('heading', { name: 'Reset your password' }).waitFor()
      assert.deepEqual(await axeViolations(p), [], 'reset: ask for a code, 390 px')
      await p.getByLabel('Email or phone').fill('staff@courtside.test')
      await p.getByRole('button', { name: 'Send code' }).click()
      await p.getByRole('status').filter({ hasText: 'A code was sent to staff@courtside.test.' }).waitFor()
      await p.getByLabel('Code').fill(await lastOtp(ui.server.app, 'staff@courtside.test'))
      await p.getByRole('button', { name: 'Sign in with the code' }).click()
      await p.getByRole('status').filter({ hasText: 'Code accepted. Choose a new password.' }).waitFor()
      assert.deepEqual(await axeViolations(p), [], 'reset: new password, 390 px')
      await p.getByLabel('New password', { exact: true }).fill('desk-new-pass-9')
      await p.getByLabel('Confirm new password').fill('desk-new-pass-9')
      await p.getByRole('button', { name: 'Save password and sign in' }).click()
      await p.getByRole('button', { name: 'Sign out' }).waitFor()
      const login = await ui.server.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'staff@courtside.test', password: 'desk-new-pass-9' },
      })
      assert.equal(login.statusCode, 200, login.body)
    } finally {
      await context.close()
    }
  })

  test('on a desktop, a wrong code is said and "Back to sign in" returns', async () => {
    const context = await ui.browser.newContext({ viewport: { width: 1280, height: 900 } })
    const p = await context.newPage()
    try {
      await p.goto(`${ui.server.url}/console/`)
      await p.getByRole('button', { name: 'Forgot password?' }).click()
      await p.getByLabel('Email or phone').fill('owner1@courtside.test')
      await p.getByRole('button', { name: 'Send code' }).click()
      await p.getByLabel('Code').waitFor()
      await p.getByLabel('Code').fill('000000')
      await p.getByRole('button', { name: 'Sign in with the code' }).click()
      await p.getByRole('alert').filter({ hasText: 'Invalid or expired OTP.' }).waitFor()
      assert.deepEqual(await axeViolations(p), [], 'reset: wrong code, desktop')
      await p.getByRole('button', { name: 'Back to sign in' }).click()
      await p.getByRole('heading', { name: 'Courtside desk' }).waitFor()
    } finally {
      await context.close()
    }
  })
})
