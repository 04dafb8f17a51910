-- Accounts, API keys, subscriptions and persisted daily quota counts, shared by all three services.
-- Every *_at column holds UTC epoch milliseconds; dates that are days hold 'YYYY-MM-DD'.

CREATE TABLE accounts (
  id            INTEGER PRIMARY KEY,
  email         TEXT NOT NULL UNIQUE COLLATE NOCASE,
  password_hash TEXT,                -- scrypt; null for accounts made by an operator until they sign up
  created_at    INTEGER NOT NULL
);

CREATE TABLE api_keys (
  id             INTEGER PRIMARY KEY,
  account_id     INTEGER NOT NULL REFERENCES accounts(id),
  service        TEXT NOT NULL CHECK (service IN ('impact', 'human', 'funding')),
  environment    TEXT CHECK (environment IN ('test', 'live')),  -- human keys only
  name           TEXT NOT NULL,
  hash           TEXT NOT NULL UNIQUE,   -- SHA-256 (hex) of the whole key; the key itself is never stored
  display_prefix TEXT NOT NULL,          -- service prefix + first 4 characters, for people to tell keys apart
  scopes         TEXT NOT NULL DEFAULT '', -- space-separated, e.g. 'tasks:read tasks:write'
  created_at     INTEGER NOT NULL,
  last_used_at   INTEGER,                -- written behind, at most once a second per key
  revoked_at     INTEGER,
  expires_at     INTEGER,                -- set by rotation on the old key, or at creation
  rotated_from   INTEGER REFERENCES api_keys(id),
  CHECK ((service = 'human') = (environment IS NOT NULL))
);
CREATE INDEX api_keys_by_account ON api_keys(account_id, service);

-- A live subscription makes an account's funding keys 'pro'. Tier is decided per request from this
-- table, never stored on the key, so an upgrade or a lapse applies to keys already issued.
CREATE TABLE subscriptions (
  id         INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  service    TEXT NOT NULL CHECK (service IN ('funding')),
  plan       TEXT NOT NULL CHECK (plan IN ('pro')),
  starts_at  INTEGER NOT NULL,
  ends_at    INTEGER,                    -- null: until ended by an operator
  created_at INTEGER NOT NULL
);
CREATE INDEX subscriptions_by_account ON subscriptions(account_id, service, starts_at);

-- Daily request counts per bucket (a key or a client address) and UTC day. Counted in memory and
-- written behind about once a second, so a restart keeps the day's count.
CREATE TABLE quota_daily (
  bucket TEXT NOT NULL,
  day    TEXT NOT NULL,
  count  INTEGER NOT NULL,
  PRIMARY KEY (bucket, day)
) WITHOUT ROWID;
