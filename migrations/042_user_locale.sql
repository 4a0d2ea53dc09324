-- A user's language (issue 50; docs/languages.md): "en" or "ne". Every text the server writes for
-- them follows it (notifications and push, SMS and mail, error messages when they are signed in,
-- the sandbox payment pages); PUT /api/profile sets it (the web app's language switch does).
ALTER TABLE users
  ADD COLUMN locale text NOT NULL DEFAULT 'en' CHECK (locale IN ('en', 'ne'));
