-- "Forgot password" (issue 51): a session signed in with a one-time code (POST /api/auth/otp/verify)
-- may set a new password without the current one (POST /api/profile/password/reset) for 15 minutes,
-- once. The time of that sign-in is kept on its token; other tokens keep NULL.
ALTER TABLE api_tokens ADD COLUMN otp_signed_in_at timestamptz;
