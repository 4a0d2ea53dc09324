// English strings of "forgot password" and "List your venue" (issue 51; web/src/pages/account/reset.tsx,
// web/src/components/layout.tsx). en.ts spreads them in; reset-ne.ts has the same keys.
export const resetEn = {
  'reset.link': 'Forgot password?',
  'reset.title': 'Reset your password',
  'reset.intro':
    'We send a one-time code to the mobile number or email of your account. With it you choose a new password.',
  'reset.verify': 'Sign in with the code',
  'reset.choose': 'Code accepted. Choose a new password within 15 minutes.',
  'reset.newPassword': 'New password',
  'reset.save': 'Save the new password',
  'reset.done': 'Your new password is saved. You are signed in.',
  'listVenue.link': 'List your venue',
}
