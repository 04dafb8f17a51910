-- Funding sync (issue 15): the state that lets `funding sync` fetch only what is new or changed,
-- resume after a kill, run one at a time across processes, and report how fresh each source is.

-- One row per source: where the next sync starts (a JSON watermark whose meaning depends on the
-- source, see db/funding/sync/*.ts), the last success and how many runs in a row have failed.
CREATE TABLE funding_sync_state (
  source               TEXT PRIMARY KEY REFERENCES funding_sources(code),
  watermark            TEXT NOT NULL DEFAULT '{}',
  last_success_at      INTEGER,          -- UTC ms a sync of this source last finished without a failure
  last_attempt_at      INTEGER,
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  last_error           TEXT
);

-- Every run of every source, finished or not: counts for --json and /metrics.
CREATE TABLE funding_sync_runs (
  id          INTEGER PRIMARY KEY,
  source      TEXT NOT NULL REFERENCES funding_sources(code),
  started_at  INTEGER NOT NULL,
  finished_at INTEGER,                  -- null: still running, or killed
  outcome     TEXT CHECK (outcome IN ('ok', 'failed')),
  fetched     INTEGER NOT NULL DEFAULT 0,
  inserted    INTEGER NOT NULL DEFAULT 0,
  updated     INTEGER NOT NULL DEFAULT 0,
  unchanged   INTEGER NOT NULL DEFAULT 0,
  withheld    INTEGER NOT NULL DEFAULT 0,
  skipped     INTEGER NOT NULL DEFAULT 0,
  failed      INTEGER NOT NULL DEFAULT 0,
  error       TEXT
);
CREATE INDEX funding_sync_runs_source ON funding_sync_runs(source, id);

-- Items a source lists whose detail we fetched, with a fingerprint of the list entry: a detail is
-- fetched again only when its list entry changed (BDNS: one detail request per new or changed call).
CREATE TABLE funding_sync_items (
  source      TEXT NOT NULL,
  item_id     TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  seen_at     INTEGER NOT NULL,
  PRIMARY KEY (source, item_id)
) WITHOUT ROWID;

-- Validators of documents fetched before (ETag, Last-Modified) for conditional requests.
CREATE TABLE funding_sync_http_cache (
  url           TEXT PRIMARY KEY,
  etag          TEXT,
  last_modified TEXT,
  body_sha256   TEXT,                   -- of the body last imported: an unchanged body is not re-imported
  fetched_at    INTEGER NOT NULL
);

-- One sync at a time across processes: a row held until expires_at, renewed after every batch.
CREATE TABLE funding_sync_lock (
  name        TEXT PRIMARY KEY,
  holder      TEXT NOT NULL,            -- host:pid:nonce of the holder
  acquired_at INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL
);
