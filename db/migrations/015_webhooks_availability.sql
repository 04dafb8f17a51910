-- Issue 26: what an agent developer needs in production. Four parts, each explained where it is.
-- Every *_at column is UTC epoch milliseconds.

-- Webhooks (db/webhooks/, lib/webhooks/): a mechanism shared by every service -------------------------
-- An account registers endpoints per environment ('test' receives sandbox events, 'live' the rest);
-- a service emits an event in the same transaction as the change it reports (an outbox), and one
-- delivery row per matching endpoint is queued with it; the owner of the file delivers them, signed
-- (Standard Webhooks 1.0), retried with backoff for a day, in order per subject and endpoint.
CREATE TABLE webhook_endpoints (
  id                  INTEGER PRIMARY KEY,
  public_id           TEXT NOT NULL UNIQUE,          -- 'we_' + 20 base62: what clients see
  account_id          INTEGER NOT NULL REFERENCES accounts(id),
  environment         TEXT NOT NULL CHECK (environment IN ('test', 'live')),
  url                 TEXT NOT NULL,
  description         TEXT,
  event_types         TEXT NOT NULL,                 -- space-separated: exact types, 'human.task.*' or '*'
  secret              TEXT NOT NULL,                 -- 'whsec_' + base64 of 32 random bytes (needed to sign)
  previous_secret     TEXT,                          -- after a rotation: also signed with until it expires
  previous_expires_at INTEGER,
  created_at          INTEGER NOT NULL,
  updated_at          INTEGER NOT NULL,
  disabled_at         INTEGER,                       -- no deliveries while set
  disabled_reason     TEXT,                          -- 'by_client' | 'gone' (the receiver answered 410)
  deleted_at          INTEGER,                       -- kept for the deliveries that name it
  CHECK ((previous_secret IS NULL) = (previous_expires_at IS NULL))
);
CREATE INDEX webhook_endpoints_by_owner ON webhook_endpoints(account_id, environment) WHERE deleted_at IS NULL;

CREATE TABLE webhook_events (
  id          INTEGER PRIMARY KEY,
  public_id   TEXT NOT NULL UNIQUE,                  -- 'evt_' + 24 base62, time first: the webhook-id header
  account_id  INTEGER NOT NULL REFERENCES accounts(id),
  environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
  type        TEXT NOT NULL,                         -- '<service>.<resource>.<what>', e.g. human.task.delivered
  subject     TEXT NOT NULL,                         -- what the event is about ('task:tsk_…'): ordering key
  payload     TEXT NOT NULL,                         -- the JSON body, byte for byte what every delivery sends
  created_at  INTEGER NOT NULL
);
CREATE INDEX webhook_events_by_owner ON webhook_events(account_id, environment, id);
CREATE INDEX webhook_events_by_subject ON webhook_events(account_id, environment, subject, id);

CREATE TABLE webhook_deliveries (
  id              INTEGER PRIMARY KEY,
  event_id        INTEGER NOT NULL REFERENCES webhook_events(id) ON DELETE CASCADE,
  endpoint_id     INTEGER NOT NULL REFERENCES webhook_endpoints(id),
  subject         TEXT NOT NULL,                     -- the event's, for in-order delivery per endpoint
  trigger         TEXT NOT NULL CHECK (trigger IN ('event', 'replay', 'test')),
  status          TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,                           -- pending: when to try next
  locked_until    INTEGER,                           -- an attempt in flight holds it until then
  last_attempt_at INTEGER,
  last_status     INTEGER,                           -- HTTP status of the last attempt (NULL: no answer)
  last_error      TEXT,
  created_at      INTEGER NOT NULL,
  finished_at     INTEGER,
  CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL))
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_queue ON webhook_deliveries(endpoint_id, subject, id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries(event_id);
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries(endpoint_id, id);

-- Task fields integrators expect, and why a task ended -------------------------------------------------
ALTER TABLE human_tasks ADD COLUMN metadata TEXT;          -- JSON object of short strings, echoed and filterable
ALTER TABLE human_tasks ADD COLUMN client_reference TEXT;  -- the client's own id for the order
ALTER TABLE human_tasks ADD COLUMN accept_by INTEGER;      -- a live task nobody has accepted by then expires
ALTER TABLE human_tasks ADD COLUMN expiry_reason TEXT CHECK (expiry_reason IN ('not_accepted', 'sla_passed'));
CREATE INDEX human_tasks_by_reference ON human_tasks(account_id, environment, client_reference)
  WHERE client_reference IS NOT NULL;
-- The webhook event (webhook_events.public_id) each transition was reported as; NULL before issue 26.
ALTER TABLE human_task_events ADD COLUMN event_id TEXT;

-- Truthful availability: who is on duty, for what -------------------------------------------------------
-- A verified person is available for new tasks while on duty (they say so in the console), until
-- on_duty_until if set. capabilities: space-separated ids they are verified for; NULL = every one.
ALTER TABLE human_workers ADD COLUMN on_duty INTEGER NOT NULL DEFAULT 0 CHECK (on_duty IN (0, 1));
ALTER TABLE human_workers ADD COLUMN on_duty_until INTEGER;
ALTER TABLE human_workers ADD COLUMN capabilities TEXT;

-- Accounts made by an operator reach the console: one-time links to set or reset a password -----------
CREATE TABLE password_tokens (
  token_hash TEXT PRIMARY KEY,                       -- SHA-256 of the link's token; the token is never stored
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  purpose    TEXT NOT NULL CHECK (purpose IN ('set', 'reset')),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at    INTEGER
);
CREATE INDEX password_tokens_by_account ON password_tokens(account_id);
