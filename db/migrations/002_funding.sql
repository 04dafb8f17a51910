-- Funding corpus: calls from the EU portal, BDNS and BOE in one normalised table, CORDIS projects
-- that enrich EU calls by topic, BOE notices that attach to BDNS calls, and a log of imports.

CREATE TABLE funding_sources (
  code        TEXT PRIMARY KEY,           -- eu | cordis | bdns | boe
  name        TEXT NOT NULL,
  publisher   TEXT NOT NULL,
  homepage    TEXT NOT NULL,
  licence     TEXT NOT NULL,
  licence_url TEXT NOT NULL,
  attribution TEXT NOT NULL,              -- the credit the licence requires, to be shown with the data
  time_zone   TEXT NOT NULL               -- the zone the source's dates are published in
);

INSERT INTO funding_sources VALUES
 ('eu', 'EU Funding & Tenders Portal', 'European Commission',
  'https://ec.europa.eu/info/funding-tenders/opportunities/portal/', 'CC BY 4.0',
  'https://creativecommons.org/licenses/by/4.0/',
  '© European Union. Source: EU Funding & Tenders Portal, reused under the Commission reuse policy (Decision 2011/833/EU).',
  'Europe/Brussels'),
 ('cordis', 'CORDIS – EU research results', 'European Commission, Publications Office',
  'https://cordis.europa.eu/', 'CC BY 4.0', 'https://creativecommons.org/licenses/by/4.0/',
  'Source: CORDIS – EU research results, © European Union, CC BY 4.0.', 'Europe/Brussels'),
 ('bdns', 'Base de Datos Nacional de Subvenciones (SNPSAP)', 'Intervención General de la Administración del Estado',
  'https://www.infosubvenciones.es/bdnstrans/GE/es/index', 'IGAE reuse terms',
  'https://www.infosubvenciones.es/bdnstrans/GE/es/avisolegal',
  'Origen de los datos: IGAE (Base de Datos Nacional de Subvenciones). No implica respaldo de la IGAE.',
  'Europe/Madrid'),
 ('boe', 'Boletín Oficial del Estado: sumario', 'Agencia Estatal Boletín Oficial del Estado',
  'https://www.boe.es/datosabiertos/', 'AEBOE reuse conditions', 'https://www.boe.es/informacion/aviso_legal/index.php#reutilizacion',
  'Fuente: Agencia Estatal Boletín Oficial del Estado (www.boe.es).', 'Europe/Madrid');

CREATE TABLE funding_calls (
  seq           INTEGER PRIMARY KEY,      -- internal; the FTS index's rowid
  id            TEXT NOT NULL UNIQUE,     -- public id: '<source>:<source_id>'
  source        TEXT NOT NULL REFERENCES funding_sources(code),
  source_id     TEXT NOT NULL,
  title         TEXT NOT NULL,
  summary       TEXT,
  body          TEXT,                     -- longer searchable text (plain, tags stripped); not served
  funder        TEXT,
  programme     TEXT,
  country       TEXT NOT NULL,            -- ISO 3166-1 alpha-2, 'EU' for the Commission
  region        TEXT,
  url           TEXT,
  published_on  TEXT,                     -- YYYY-MM-DD in the source's zone
  opening_on    TEXT,                     -- YYYY-MM-DD in the source's zone
  deadline      TEXT,                     -- closing day the source published (next cut-off at import)
  deadline_time TEXT,                     -- HH:MM, only when the source stated it
  deadline_text TEXT,                     -- the source's own words when it gives no date
  cutoffs       TEXT NOT NULL DEFAULT '[]', -- JSON [{"date","time"}] of every cut-off, ascending
  time_zone     TEXT NOT NULL,
  opens_at      INTEGER,                  -- UTC ms of the opening day's start in time_zone
  closes_at     INTEGER,                  -- UTC ms the last cut-off closes (deadline_time, else end of day)
  budget        REAL,
  currency      TEXT,
  language      TEXT NOT NULL,
  source_status TEXT CHECK (source_status IN ('open', 'forthcoming', 'closed')),
  bdns_id       TEXT,                     -- BDNS identifier: joins BOE notices to BDNS calls
  personal_data INTEGER NOT NULL DEFAULT 0, -- 1: about a natural person; stored, never served
  content_hash  TEXT NOT NULL,            -- of the normalised record: a re-import that changes nothing writes nothing
  imported_at   INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  UNIQUE (source, source_id)
);
CREATE INDEX funding_calls_published ON funding_calls(published_on DESC, id) WHERE personal_data = 0;
-- Deadline order puts calls without a deadline last: coalesce to the largest date (9999-12-31). The
-- two deadline indexes also carry every column the status rules read, so "status=open" (a range:
-- not closed yet) is counted from the index alone without touching the table's rows.
CREATE INDEX funding_calls_closes
  ON funding_calls(coalesce(closes_at, 253402300799999), id, closes_at, source_status, opens_at, published_on, country, source)
  WHERE personal_data = 0;
CREATE INDEX funding_calls_country_closes
  ON funding_calls(country, coalesce(closes_at, 253402300799999), id, closes_at, source_status, opens_at, published_on, source)
  WHERE personal_data = 0;
CREATE INDEX funding_calls_country_published ON funding_calls(country, published_on DESC, id) WHERE personal_data = 0;
CREATE INDEX funding_calls_bdns ON funding_calls(bdns_id) WHERE bdns_id IS NOT NULL;
-- The next opening after a given time: when a cached search response stops being true.
CREATE INDEX funding_calls_opens ON funding_calls(opens_at) WHERE personal_data = 0 AND opens_at IS NOT NULL;

-- Every read goes through this view, so no query path can return a withheld record.
CREATE VIEW funding_public_calls AS SELECT * FROM funding_calls WHERE personal_data = 0;

-- Title weighted above body at query time (bm25 weights); withheld records are never indexed.
CREATE VIRTUAL TABLE funding_calls_fts USING fts5(
  title, summary, body,
  content = 'funding_calls', content_rowid = 'seq',
  tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);
CREATE TRIGGER funding_calls_ai AFTER INSERT ON funding_calls WHEN new.personal_data = 0 BEGIN
  INSERT INTO funding_calls_fts(rowid, title, summary, body) VALUES (new.seq, new.title, new.summary, new.body);
END;
CREATE TRIGGER funding_calls_ad AFTER DELETE ON funding_calls WHEN old.personal_data = 0 BEGIN
  INSERT INTO funding_calls_fts(funding_calls_fts, rowid, title, summary, body) VALUES ('delete', old.seq, old.title, old.summary, old.body);
END;
-- One update trigger with two statements in order. (Two AFTER UPDATE triggers would fire newest
-- first: "insert new" before "delete old", and the delete would remove every token both versions share.)
CREATE TRIGGER funding_calls_au AFTER UPDATE ON funding_calls BEGIN
  INSERT INTO funding_calls_fts(funding_calls_fts, rowid, title, summary, body)
    SELECT 'delete', old.seq, old.title, old.summary, old.body WHERE old.personal_data = 0;
  INSERT INTO funding_calls_fts(rowid, title, summary, body)
    SELECT new.seq, new.title, new.summary, new.body WHERE new.personal_data = 0;
END;

-- CORDIS: projects funded under an EU topic ("projects funded under this call").
CREATE TABLE funding_projects (
  id                  INTEGER PRIMARY KEY,
  source_id           TEXT NOT NULL UNIQUE,  -- CORDIS project id
  acronym             TEXT,
  title               TEXT NOT NULL,
  topic               TEXT NOT NULL,         -- EU topic identifier = funding_calls.source_id of source 'eu'
  status              TEXT,                  -- SIGNED | CLOSED | TERMINATED
  start_date          TEXT,
  end_date            TEXT,
  total_cost          REAL,
  ec_contribution     REAL,
  framework           TEXT,
  coordinator         TEXT,                  -- null when the coordinator is a natural person
  coordinator_country TEXT,
  url                 TEXT,
  personal_data       INTEGER NOT NULL DEFAULT 0,
  content_hash        TEXT NOT NULL,
  imported_at         INTEGER NOT NULL,
  updated_at          INTEGER NOT NULL
);
CREATE INDEX funding_projects_topic ON funding_projects(topic) WHERE personal_data = 0;

-- BOE sumario items that announce a grant call; attached to their BDNS call by bdns_id.
CREATE TABLE funding_notices (
  id            INTEGER PRIMARY KEY,
  source_id     TEXT NOT NULL UNIQUE,        -- BOE identificador, e.g. BOE-B-2025-12345
  bdns_id       TEXT,
  title         TEXT NOT NULL,
  url           TEXT,
  published_on  TEXT NOT NULL,
  section       TEXT,
  department    TEXT,
  personal_data INTEGER NOT NULL DEFAULT 0,
  content_hash  TEXT NOT NULL,
  imported_at   INTEGER NOT NULL
);
CREATE INDEX funding_notices_bdns ON funding_notices(bdns_id) WHERE bdns_id IS NOT NULL;

CREATE TABLE funding_imports (
  id          INTEGER PRIMARY KEY,
  source      TEXT NOT NULL REFERENCES funding_sources(code),
  file_name   TEXT NOT NULL,
  file_sha256 TEXT NOT NULL,
  imported_at INTEGER NOT NULL,
  inserted    INTEGER NOT NULL,
  updated     INTEGER NOT NULL,
  unchanged   INTEGER NOT NULL,
  withheld    INTEGER NOT NULL
);
