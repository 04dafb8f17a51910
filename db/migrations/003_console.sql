-- The sign-in console: sessions, failed sign-in attempts, and the server's own secret.

-- A session is known by the SHA-256 of its cookie value; the value itself is never stored, so a copy
-- of the database cannot be used to sign in.
CREATE TABLE sessions (
  token_hash   TEXT PRIMARY KEY,
  account_id   INTEGER NOT NULL REFERENCES accounts(id),
  created_at   INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL,
  ended_at     INTEGER                 -- signed out
);
CREATE INDEX sessions_by_account ON sessions(account_id);

-- Failed sign-ins (per account e-mail and per client address) and sign-ups (per address), counted
-- over a sliding window to slow down password guessing and mass sign-ups.
CREATE TABLE auth_attempts (
  bucket TEXT NOT NULL,                -- e.g. 'fail-email:<e-mail>', 'fail-ip:<address>', 'signup-ip:<address>'
  at     INTEGER NOT NULL
);
CREATE INDEX auth_attempts_by_bucket ON auth_attempts(bucket, at);

-- Secrets the server makes for itself at first start (the CSRF token key), kept across restarts.
CREATE TABLE server_secrets (
  name  TEXT PRIMARY KEY,
  value BLOB NOT NULL
);
