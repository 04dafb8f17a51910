-- Human task ordering (issue 4): the catalogue (capabilities, SLAs, cities, prices), tasks and their
-- history, idempotency records, evidence, verified people, and the double-entry ledger of prepaid
-- balances. Every *_at column is UTC epoch milliseconds; money is integer cents (EUR).
-- SPEC "Human task ordering: states and money" is the contract for status values and money moves.

-- Catalogue ------------------------------------------------------------------------------------
-- Loaded from fixtures/human/catalogue.json (db/human/catalogue.ts). A capability's spec and result
-- schemas live in code (lib/human/capabilities.ts, valibot): a row here without code is refused at load.
CREATE TABLE human_capabilities (
  id          TEXT PRIMARY KEY,                 -- 'human.verify'
  title       TEXT NOT NULL,
  description TEXT NOT NULL,
  ordinal     INTEGER NOT NULL,
  active      INTEGER NOT NULL CHECK (active IN (0, 1)) -- 0: dropped from the catalogue, kept for its tasks
);

CREATE TABLE human_slas (
  code    TEXT PRIMARY KEY,                     -- 'standard', 'express'
  title   TEXT NOT NULL,
  hours   INTEGER NOT NULL CHECK (hours > 0),   -- due time = order time + hours
  ordinal INTEGER NOT NULL,
  active  INTEGER NOT NULL CHECK (active IN (0, 1))
);

-- Every city we know, live or not: a refusal names the nearest live ones, so unserved cities need
-- coordinates too.
CREATE TABLE human_cities (
  country_iso TEXT NOT NULL CHECK (length(country_iso) = 2 AND country_iso = upper(country_iso)),
  city_slug   TEXT NOT NULL CHECK (city_slug GLOB '[a-z0-9]*' AND city_slug NOT GLOB '*[^a-z0-9-]*'),
  name        TEXT NOT NULL,
  latitude    REAL NOT NULL CHECK (latitude BETWEEN -90 AND 90),
  longitude   REAL NOT NULL CHECK (longitude BETWEEN -180 AND 180),
  live        INTEGER NOT NULL CHECK (live IN (0, 1)),
  PRIMARY KEY (country_iso, city_slug)
) WITHOUT ROWID;

-- One exact price per capability, city and SLA. No row: that combination is not served.
CREATE TABLE human_prices (
  capability  TEXT NOT NULL REFERENCES human_capabilities(id),
  country_iso TEXT NOT NULL,
  city_slug   TEXT NOT NULL,
  sla         TEXT NOT NULL REFERENCES human_slas(code),
  price_cents INTEGER NOT NULL CHECK (price_cents > 0),
  PRIMARY KEY (capability, country_iso, city_slug, sla),
  FOREIGN KEY (country_iso, city_slug) REFERENCES human_cities(country_iso, city_slug)
) WITHOUT ROWID;

CREATE TABLE human_catalogue_meta (
  key   TEXT PRIMARY KEY,                       -- version (bumped by every load) | loaded_at | source_sha256
  value TEXT NOT NULL
);

-- Tasks ----------------------------------------------------------------------------------------
CREATE TABLE human_tasks (
  id                INTEGER PRIMARY KEY,
  ref               TEXT NOT NULL UNIQUE,        -- 'tsk_' + 20 base62 (time-ordered, lib/human/refs.ts): what clients see
  account_id        INTEGER NOT NULL REFERENCES accounts(id),
  key_id            INTEGER NOT NULL REFERENCES api_keys(id),
  environment       TEXT NOT NULL CHECK (environment IN ('test', 'live')),
  capability        TEXT NOT NULL REFERENCES human_capabilities(id),
  spec              TEXT NOT NULL,               -- JSON, as validated against the capability's spec schema
  country_iso       TEXT NOT NULL,
  city_slug         TEXT NOT NULL,
  sla               TEXT NOT NULL REFERENCES human_slas(code),
  price_cents       INTEGER NOT NULL CHECK (price_cents > 0),
  max_price_cents   INTEGER NOT NULL CHECK (max_price_cents >= price_cents),
  currency          TEXT NOT NULL,
  status            TEXT NOT NULL CHECK (status IN ('pending', 'dispatched', 'in_progress', 'delivered', 'disputed',
                                                    'completed', 'cancelled', 'failed', 'expired', 'refunded')),
  version           INTEGER NOT NULL DEFAULT 1,  -- +1 on every transition (compare-and-set on status)
  sandbox_plan      TEXT,                        -- test tasks: the magic value that drives them (lib/human/sandbox.ts)
  worker_account_id INTEGER REFERENCES accounts(id),
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL,
  due_at            INTEGER NOT NULL,            -- the SLA: not delivered by then = expired
  dispatched_at     INTEGER,
  started_at        INTEGER,
  delivered_at      INTEGER,
  dispute_deadline  INTEGER,                     -- set on delivery; disputes are accepted before it
  closed_at         INTEGER,                     -- reached a terminal state
  answer            TEXT,                        -- JSON, validated against the capability's result schema
  confidence_bps    INTEGER CHECK (confidence_bps BETWEEN 0 AND 10000),
  cancel_reason     TEXT,
  failure_reason    TEXT,
  dispute_reason    TEXT,
  dispute_statement TEXT,
  disputed_at       INTEGER,
  resolution        TEXT CHECK (resolution IN ('answer_stands', 'refunded')),
  resolution_note   TEXT,
  resolved_at       INTEGER,
  next_check_at     INTEGER,                     -- when the scheduler must look at it next; NULL = nothing due
  CHECK ((environment = 'test') = (sandbox_plan IS NOT NULL))
);
CREATE INDEX human_tasks_by_owner ON human_tasks(account_id, environment, created_at DESC, id DESC);
CREATE INDEX human_tasks_due ON human_tasks(next_check_at) WHERE next_check_at IS NOT NULL;
CREATE INDEX human_tasks_offered ON human_tasks(country_iso, city_slug, created_at) WHERE status = 'pending' AND environment = 'live';
CREATE INDEX human_tasks_by_worker ON human_tasks(worker_account_id, updated_at) WHERE worker_account_id IS NOT NULL;

-- Every transition, in order: the history a dispute is judged on, and what the tests read.
CREATE TABLE human_task_events (
  id          INTEGER PRIMARY KEY,
  task_id     INTEGER NOT NULL REFERENCES human_tasks(id),
  event       TEXT NOT NULL,
  from_status TEXT,                              -- NULL for the order itself
  to_status   TEXT NOT NULL,
  actor       TEXT NOT NULL,                     -- client | worker:<account id> | scheduler | sandbox | operator
  at          INTEGER NOT NULL
);
CREATE INDEX human_task_events_by_task ON human_task_events(task_id, id);

-- POST /tasks idempotency: the first order an Idempotency-Key created, replayed for 24 hours. Scoped to
-- the account and environment (a test key and a live key of one account never share a record). A rowid
-- table with the key in a unique index, not the key as primary key: the stored response (~1 KB) is
-- then appended in order instead of splitting random pages of a WITHOUT ROWID tree at every order.
CREATE TABLE human_idempotency (
  id              INTEGER PRIMARY KEY,
  account_id      INTEGER NOT NULL REFERENCES accounts(id),
  environment     TEXT NOT NULL CHECK (environment IN ('test', 'live')),
  idempotency_key TEXT NOT NULL,
  fingerprint     TEXT NOT NULL,                 -- SHA-256 of the canonical JSON of the request body
  status          INTEGER NOT NULL,
  body            TEXT NOT NULL,                 -- the response as first sent
  task_id         INTEGER NOT NULL REFERENCES human_tasks(id),
  created_at      INTEGER NOT NULL
);
CREATE UNIQUE INDEX human_idempotency_by_key ON human_idempotency(account_id, environment, idempotency_key);
CREATE INDEX human_idempotency_by_age ON human_idempotency(created_at);

-- Evidence -------------------------------------------------------------------------------------
-- Uploaded files, stored once per content (SHA-256), inside the one database file.
CREATE TABLE human_files (
  id         INTEGER PRIMARY KEY,
  sha256     TEXT NOT NULL UNIQUE,
  media_type TEXT NOT NULL,
  size       INTEGER NOT NULL CHECK (size > 0),
  bytes      BLOB NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE human_evidence (
  id              INTEGER PRIMARY KEY,
  task_id         INTEGER NOT NULL REFERENCES human_tasks(id),
  kind            TEXT NOT NULL CHECK (kind IN ('photo', 'note', 'document')),
  file_id         INTEGER REFERENCES human_files(id),
  filename        TEXT,
  note            TEXT,
  captured_at     INTEGER,
  captured_source TEXT CHECK (captured_source IN ('exif', 'upload', 'synthetic')),
  latitude        REAL,
  longitude       REAL,
  accuracy_m      REAL,
  position_source TEXT CHECK (position_source IN ('exif', 'reported', 'synthetic')),
  synthetic       INTEGER NOT NULL DEFAULT 0 CHECK (synthetic IN (0, 1)),
  created_at      INTEGER NOT NULL,
  CHECK ((kind = 'note') = (file_id IS NULL)),
  CHECK (kind <> 'note' OR note IS NOT NULL)
);
CREATE INDEX human_evidence_by_task ON human_evidence(task_id, id);

-- People who do the work -----------------------------------------------------------------------
CREATE TABLE human_workers (
  account_id  INTEGER PRIMARY KEY REFERENCES accounts(id),
  verified_at INTEGER NOT NULL,
  revoked_at  INTEGER,
  note        TEXT
);

-- Where a verified person works: a whole country (city_slug = '*') or one city.
CREATE TABLE human_worker_areas (
  account_id  INTEGER NOT NULL REFERENCES human_workers(account_id),
  country_iso TEXT NOT NULL,
  city_slug   TEXT NOT NULL,
  PRIMARY KEY (account_id, country_iso, city_slug)
) WITHOUT ROWID;

-- Ledger ---------------------------------------------------------------------------------------
-- Double entry: a journal's postings sum to zero. A posting's amount is the signed change of its
-- account's balance. Customers hold money (available, held); people are owed money (payable); the
-- platform earns its margin; 'external' is the world outside (credits come from it, so it goes negative).
CREATE TABLE human_ledger_accounts (
  id         INTEGER PRIMARY KEY,
  kind       TEXT NOT NULL CHECK (kind IN ('customer_available', 'customer_held', 'worker_payable', 'platform_revenue', 'external')),
  account_id INTEGER REFERENCES accounts(id), -- owner; NULL for platform_revenue and external
  balance    INTEGER NOT NULL DEFAULT 0,      -- cache of the sum of its postings (checked by the invariants)
  CHECK (kind NOT IN ('customer_available', 'customer_held') OR balance >= 0),
  CHECK ((account_id IS NULL) = (kind IN ('platform_revenue', 'external')))
);
CREATE UNIQUE INDEX human_ledger_accounts_owner ON human_ledger_accounts(kind, ifnull(account_id, 0));

-- A live order's price moved from available to held; resolved once: captured or released.
CREATE TABLE human_holds (
  id          INTEGER PRIMARY KEY,
  task_id     INTEGER NOT NULL UNIQUE REFERENCES human_tasks(id),
  account_id  INTEGER NOT NULL REFERENCES accounts(id),
  amount      INTEGER NOT NULL CHECK (amount > 0),
  status      TEXT NOT NULL CHECK (status IN ('open', 'captured', 'released')),
  created_at  INTEGER NOT NULL,
  resolved_at INTEGER,
  CHECK ((status = 'open') = (resolved_at IS NULL))
);

CREATE TABLE human_journals (
  id         INTEGER PRIMARY KEY,
  kind       TEXT NOT NULL CHECK (kind IN ('credit', 'hold', 'capture', 'release')),
  hold_id    INTEGER REFERENCES human_holds(id),
  memo       TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  CHECK ((kind = 'credit') = (hold_id IS NULL))
);
-- A hold is placed once and resolved at most once (capture and release share the 'resolve' slot).
CREATE UNIQUE INDEX human_journals_hold_placed ON human_journals(hold_id) WHERE kind = 'hold';
CREATE UNIQUE INDEX human_journals_hold_resolved ON human_journals(hold_id) WHERE kind IN ('capture', 'release');

CREATE TABLE human_postings (
  journal_id        INTEGER NOT NULL REFERENCES human_journals(id),
  ledger_account_id INTEGER NOT NULL REFERENCES human_ledger_accounts(id),
  amount            INTEGER NOT NULL CHECK (amount <> 0),
  balance_after     INTEGER NOT NULL,          -- the account's balance once this posting applied
  PRIMARY KEY (journal_id, ledger_account_id)
) WITHOUT ROWID;
CREATE INDEX human_postings_by_account ON human_postings(ledger_account_id, journal_id);
