-- What grant seekers ask for next (issue 27): who may apply, how much, what changed, saved searches.
--
-- Who may apply. applicant_terms: the source's own words, JSON ["GRAN EMPRESA", …] (BDNS
-- tiposBeneficiarios, EU types of action); applicant_mask: the normalised types they map to, one bit
-- each in the order of lib/funding/applicants.ts APPLICANT_TYPES (individual 1, self_employed 2, sme 4,
-- large_company 8, non_profit 16, public_body 32, research 64); 0 when the source states nothing.
ALTER TABLE funding_calls ADD COLUMN applicant_terms TEXT NOT NULL DEFAULT '[]';
ALTER TABLE funding_calls ADD COLUMN applicant_mask INTEGER NOT NULL DEFAULT 0;
-- How much: budget (total, existing column) and the most one grant may receive, when the source states it.
ALTER TABLE funding_calls ADD COLUMN award_ceiling REAL;
-- What changed: when an import or sync last saw a meaningful change (funding_call_changes); null if never.
ALTER TABLE funding_calls ADD COLUMN changed_at INTEGER;

-- The order indexes carry the new filters' columns, so a walk in deadline or publication order tests
-- them from the index entry and reads a call's row only when it passes (SQLite defers the row seek).
DROP INDEX funding_calls_closes;
DROP INDEX funding_calls_country_closes;
DROP INDEX funding_calls_published;
DROP INDEX funding_calls_country_published;
CREATE INDEX funding_calls_closes
  ON funding_calls(coalesce(served_closes_at, 253402300799999), id, closes_at, source_status, opens_at, published_on, country, source,
                   applicant_mask, budget, changed_at)
  WHERE personal_data = 0;
CREATE INDEX funding_calls_country_closes
  ON funding_calls(country, coalesce(served_closes_at, 253402300799999), id, closes_at, source_status, opens_at, published_on, source,
                   applicant_mask, budget, changed_at)
  WHERE personal_data = 0;
CREATE INDEX funding_calls_published
  ON funding_calls(coalesce(published_on, ''), id, applicant_mask, budget, changed_at) WHERE personal_data = 0;
CREATE INDEX funding_calls_country_published
  ON funding_calls(country, coalesce(published_on, ''), id, applicant_mask, budget, changed_at) WHERE personal_data = 0;
-- Recently changed calls are few: found from this index alone.
CREATE INDEX funding_calls_changed ON funding_calls(changed_at) WHERE changed_at IS NOT NULL AND personal_data = 0;

-- Each meaningful change an import or a sync saw (db/funding/history.ts; the rules in
-- lib/funding/history.ts): what it was before and after (JSON), when, and in what it was seen.
CREATE TABLE funding_call_changes (
  id       INTEGER PRIMARY KEY,
  call_id  TEXT NOT NULL,          -- public id '<source>:<source_id>'
  at       INTEGER NOT NULL,       -- UTC ms of the import or sync
  field    TEXT NOT NULL CHECK (field IN ('deadline', 'opening', 'status', 'withdrawn', 'budget', 'award_ceiling', 'title')),
  before   TEXT,                   -- JSON
  after    TEXT,                   -- JSON
  seen_in  TEXT NOT NULL           -- the file or URL whose import saw it
);
CREATE INDEX funding_call_changes_call ON funding_call_changes(call_id, id);

-- Saved searches (signed-in accounts; bounded per account): a search's query string as the API takes
-- it, checked by the same schema when saved. New calls that match are recorded once each, with the
-- webhook event that reported them (db/webhooks/events.ts).
CREATE TABLE funding_saved_searches (
  id         INTEGER PRIMARY KEY,
  public_id  TEXT NOT NULL UNIQUE,  -- 'ss_' + random base62
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name       TEXT NOT NULL,
  query      TEXT NOT NULL,         -- canonical query string, e.g. 'q=hidr%C3%B3geno&status=open'
  params     TEXT NOT NULL,         -- the same, as the search schema parsed it (JSON): what is matched
  created_at INTEGER NOT NULL
);
CREATE INDEX funding_saved_searches_account ON funding_saved_searches(account_id, id);

CREATE TABLE funding_saved_search_matches (
  saved_search_id INTEGER NOT NULL REFERENCES funding_saved_searches(id) ON DELETE CASCADE,
  call_id         TEXT NOT NULL,
  matched_at      INTEGER NOT NULL,
  event_id        TEXT NOT NULL,    -- the funding.saved_search.matched event
  PRIMARY KEY (saved_search_id, call_id)
) WITHOUT ROWID;
