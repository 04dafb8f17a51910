-- Issue 35: e-mail for accounts on a public site (sign-up verification, forgotten passwords, saved-search
-- alerts, task offers, dispute outcomes). Every *_at column is UTC epoch milliseconds.

-- Whose address is proven ------------------------------------------------------------------------------
-- NULL: as before (an operator made the account, or it signed up while no mail was configured; it signs
-- in as it always did, and gets no e-mail until verified); 'unverified': signed up with mail configured,
-- signs in only once verified; 'verified': the person followed a link sent to the address.
ALTER TABLE accounts ADD COLUMN email_status TEXT CHECK (email_status IN ('unverified', 'verified'));
-- The language of the account's funding messages (English unless it chose Spanish).
ALTER TABLE accounts ADD COLUMN locale TEXT NOT NULL DEFAULT 'en' CHECK (locale IN ('en', 'es'));

-- One-time links that verify an address; only the SHA-256 of the token is kept.
CREATE TABLE email_verifications (
  token_hash TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at    INTEGER
);
CREATE INDEX email_verifications_by_account ON email_verifications(account_id);

-- A password link sent by e-mail (forgot password) also proves the address when used.
ALTER TABLE password_tokens ADD COLUMN mailed INTEGER NOT NULL DEFAULT 0 CHECK (mailed IN (0, 1));

-- The mail outbox (db/mail/): written in the transaction that causes the message, sent by the shared
-- outbox deliverer (db/outbox/deliverer.ts, the webhook deliveries' mechanism), same columns and states
-- as webhook_deliveries, plus 'cancelled' (a task offer nobody needs any more).
CREATE TABLE mail_messages (
  id              INTEGER PRIMARY KEY,
  public_id       TEXT NOT NULL UNIQUE,              -- 'msg_' + 24 base62: the Message-ID's left part
  account_id      INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
  recipient       TEXT NOT NULL,                     -- one address, validated (lib/mail/address.ts)
  kind            TEXT NOT NULL,                     -- verify, reset, alert, digest, task_offer, dispute_outcome
  about           TEXT,                              -- what it is about ('task:tsk_…'): at most one per kind, about and recipient
  locale          TEXT NOT NULL DEFAULT 'en',
  data            TEXT NOT NULL,                     -- JSON the template renders at send time (lib/mail/templates.ts)
  status          TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'cancelled')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  locked_until    INTEGER,
  last_attempt_at INTEGER,
  last_status     INTEGER,                           -- SMTP reply code of the last attempt (NULL: no answer)
  last_error      TEXT,
  created_at      INTEGER NOT NULL,
  finished_at     INTEGER,
  CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL))
);
CREATE INDEX mail_messages_due ON mail_messages(next_attempt_at) WHERE status = 'pending';
CREATE UNIQUE INDEX mail_messages_once ON mail_messages(kind, about, recipient) WHERE about IS NOT NULL;
CREATE INDEX mail_messages_by_status ON mail_messages(status, id);

-- Saved searches by e-mail: off, at once (one message per import that found new calls), or in a daily
-- digest; and whether the webhook endpoints are told as well (on: as before).
ALTER TABLE funding_saved_searches ADD COLUMN email TEXT NOT NULL DEFAULT 'off' CHECK (email IN ('off', 'immediate', 'daily'));
ALTER TABLE funding_saved_searches ADD COLUMN webhook INTEGER NOT NULL DEFAULT 1 CHECK (webhook IN (0, 1));
-- Matches a daily digest has listed (NULL: not yet; only searches in 'daily' are digested).
ALTER TABLE funding_saved_search_matches ADD COLUMN digested_at INTEGER;
-- When each account's last digest was made (one a UTC day at most).
CREATE TABLE mail_digests (
  account_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  last_at    INTEGER NOT NULL
);

-- Verified people choose to be e-mailed when a task is offered where they are on duty.
ALTER TABLE human_workers ADD COLUMN offer_mail INTEGER NOT NULL DEFAULT 0 CHECK (offer_mail IN (0, 1));
-- Every live order looks for them: from this index, a few µs when nobody chose it (most deployments).
CREATE INDEX human_workers_offer_mail ON human_workers(account_id) WHERE offer_mail = 1;
