-- Impact runs (issue 6): every figure the read API serves is a row here, written by db/impact/store.ts
-- in one transaction per run. A run is never changed after it is stored, except `published_at` when
-- it is published; impact_current_runs says which run each scenario serves.
--
-- A statistics row (figures, contributions, reach, spend, intensities) carries: low = p05, median =
-- p50, high = p95 of the draws (linear interpolation between order statistics), mean = mean of the
-- draws (kept for checks and ordering), central = mean, or NULL when grade = 'INDICATIVE'.

CREATE TABLE impact_runs (
  id                  INTEGER PRIMARY KEY,
  scenario            TEXT NOT NULL REFERENCES impact_scenarios(code),
  status              TEXT NOT NULL CHECK (status IN ('validated', 'failed')),
  draws               INTEGER NOT NULL CHECK (draws >= 1),
  seed                INTEGER NOT NULL,
  quantiles           TEXT NOT NULL,      -- 'p05,p50,p95'
  methodology_version TEXT NOT NULL REFERENCES impact_methodology_versions(code),
  data_version        TEXT NOT NULL,
  inputs_sha256       TEXT NOT NULL,      -- the register and scenario as the engine read them
  rows_sha256         TEXT NOT NULL,      -- every row the run wrote, canonically serialised
  engine              TEXT NOT NULL,
  illustrative        INTEGER NOT NULL CHECK (illustrative IN (0, 1)), -- inputs include illustrative data
  started_at          TEXT NOT NULL,
  finished_at         TEXT NOT NULL,
  published_at        TEXT,               -- first time it was made current; NULL = never published
  failed_gates        TEXT,               -- comma-separated, NULL when validated
  summary             TEXT NOT NULL       -- JSON: counts, unallocated harm, timings
);
CREATE INDEX impact_runs_scenario ON impact_runs(scenario, id);

CREATE TABLE impact_current_runs (
  scenario     TEXT PRIMARY KEY REFERENCES impact_scenarios(code),
  run_id       INTEGER NOT NULL REFERENCES impact_runs(id),
  published_at TEXT NOT NULL
);

CREATE TABLE impact_run_gates (
  run_id     INTEGER NOT NULL REFERENCES impact_runs(id),
  gate       TEXT NOT NULL,
  ordinal    INTEGER NOT NULL,
  passed     INTEGER NOT NULL CHECK (passed IN (0, 1)),
  offenders  INTEGER NOT NULL,
  explained  INTEGER NOT NULL,          -- offenders with a documented reason (they do not fail the gate)
  detail     TEXT NOT NULL,
  engine     TEXT NOT NULL,
  checked_at TEXT NOT NULL,
  PRIMARY KEY (run_id, gate)
);

-- What the run knew about each product (the register may change after the run).
CREATE TABLE impact_run_products (
  run_id         INTEGER NOT NULL REFERENCES impact_runs(id),
  product        TEXT NOT NULL,
  complete       INTEGER NOT NULL,
  bom_confidence TEXT,
  unit_mass_g    REAL,
  price_eur      REAL NOT NULL,
  mrio_column    TEXT NOT NULL,           -- 'REGION:SECTOR', the key of its input-output draws
  PRIMARY KEY (run_id, product)
);

-- Headline figures: products (per_unit, per_kg on the material route; per_1000_eur on the mrio route)
-- and materials (per_kg, material route).
CREATE TABLE impact_figures (
  run_id       INTEGER NOT NULL REFERENCES impact_runs(id),
  subject_type TEXT NOT NULL CHECK (subject_type IN ('product', 'material')),
  subject_key  TEXT NOT NULL,
  metric       TEXT NOT NULL CHECK (metric IN ('deaths', 'injuries')),
  basis        TEXT NOT NULL CHECK (basis IN ('per_unit', 'per_kg', 'per_1000_eur')),
  route        TEXT NOT NULL CHECK (route IN ('material', 'mrio')),
  low REAL NOT NULL, median REAL NOT NULL, high REAL NOT NULL, mean REAL NOT NULL, central REAL,
  grade        TEXT NOT NULL CHECK (grade IN ('ROBUST', 'MODERATE', 'INDICATIVE')),
  PRIMARY KEY (run_id, subject_type, subject_key, metric, basis)
);

-- Breakdowns of a product's per-unit (material route) or per-1,000-EUR (mrio route) headline.
-- dimension: material | country | conflict | channel | sector (contributions, also explain stages),
-- line (explain stage 1 of the material route: bill-of-materials lines), layer (explain stage of
-- the mrio route: direct, first tier, second tier, further tiers). Each dimension sums to the headline.
CREATE TABLE impact_contributions (
  run_id    INTEGER NOT NULL REFERENCES impact_runs(id),
  product   TEXT NOT NULL,
  metric    TEXT NOT NULL,
  route     TEXT NOT NULL,
  dimension TEXT NOT NULL,
  key       TEXT NOT NULL,                -- slug, iso3, channel code, sector code, line number; 'none' = not through one
  label     TEXT NOT NULL,
  seq       INTEGER NOT NULL,             -- order within the dimension: largest mean first
  low REAL NOT NULL, median REAL NOT NULL, high REAL NOT NULL, mean REAL NOT NULL, central REAL,
  grade     TEXT NOT NULL,
  share     REAL,                         -- mean / headline mean; NULL when the headline is 0
  PRIMARY KEY (run_id, product, metric, route, dimension, key)
);
CREATE INDEX impact_contributions_subject ON impact_contributions(run_id, dimension, key);

-- The flattened raw-material quantities of one unit (with losses): explain's `quantities`.
CREATE TABLE impact_run_quantities (
  run_id   INTEGER NOT NULL REFERENCES impact_runs(id),
  product  TEXT NOT NULL,
  seq      INTEGER NOT NULL,
  material TEXT,                          -- NULL: an unmodelled line, listed so nothing is hidden
  name     TEXT NOT NULL,
  qty      REAL NOT NULL,
  unit     TEXT NOT NULL,
  PRIMARY KEY (run_id, product, seq)
);

-- Monte Carlo draws, for /compare: little-endian IEEE-754 float64, one per draw index. Draw i of every
-- product (and every scenario run with the same seed) used the same draw i of every shared input.
-- subject_type 'product' = per unit, material route; 'mrio_column' = per 1,000 EUR of that column.
CREATE TABLE impact_draws (
  run_id       INTEGER NOT NULL REFERENCES impact_runs(id),
  subject_type TEXT NOT NULL CHECK (subject_type IN ('product', 'mrio_column')),
  subject_key  TEXT NOT NULL,
  metric       TEXT NOT NULL,
  draws        BLOB NOT NULL,
  PRIMARY KEY (run_id, subject_type, subject_key, metric)
);

-- Spend: figures per EUR spent (the read API scales by `amount`), per COICOP code and consumer.
CREATE TABLE impact_spend (
  run_id           INTEGER NOT NULL REFERENCES impact_runs(id),
  consumer         TEXT NOT NULL,         -- input-output region of the consumer ('EUR')
  code             TEXT NOT NULL,         -- COICOP code, or 'all' for the reference row (average EUR)
  metric           TEXT NOT NULL,
  reference        INTEGER NOT NULL,
  low REAL NOT NULL, median REAL NOT NULL, high REAL NOT NULL, mean REAL NOT NULL, central REAL,
  grade            TEXT NOT NULL,
  share_of_spend   REAL,
  made_in_consumer REAL,                  -- share of the output this spending sets off made in the consumer's region
  PRIMARY KEY (run_id, consumer, code, metric)
);

CREATE TABLE impact_spend_left_out (
  run_id         INTEGER NOT NULL REFERENCES impact_runs(id),
  consumer       TEXT NOT NULL,
  industries     TEXT NOT NULL,           -- JSON array of strings
  share_of_spend REAL,
  why            TEXT NOT NULL,
  PRIMARY KEY (run_id, consumer)
);

-- Reach of a material, conflict, country or channel: rank 0 is the total per year attributed through
-- it to the register's materials (with `counted`, the harm counted for it); ranks 1… are the products
-- it reaches, largest per-unit contribution first (at most 50).
CREATE TABLE impact_reach (
  run_id       INTEGER NOT NULL REFERENCES impact_runs(id),
  subject_type TEXT NOT NULL CHECK (subject_type IN ('material', 'conflict', 'country', 'channel')),
  subject_key  TEXT NOT NULL,
  metric       TEXT NOT NULL,
  rank         INTEGER NOT NULL,
  product      TEXT,
  low REAL NOT NULL, median REAL NOT NULL, high REAL NOT NULL, mean REAL NOT NULL, central REAL,
  grade        TEXT NOT NULL,
  share        REAL,                      -- rank 0: attributed / counted; ranks ≥ 1: of the product's headline
  counted      REAL,                      -- rank 0 only: harm counted per year for the subject
  PRIMARY KEY (run_id, subject_type, subject_key, metric, rank)
);

-- Harm intensities of the input-output table the run derived (deaths or injuries per million EUR output).
CREATE TABLE impact_run_intensities (
  run_id  INTEGER NOT NULL REFERENCES impact_runs(id),
  metric  TEXT NOT NULL,
  region  TEXT NOT NULL,
  sector  TEXT NOT NULL,
  channel TEXT NOT NULL,
  low REAL NOT NULL, median REAL NOT NULL, high REAL NOT NULL, mean REAL NOT NULL,
  PRIMARY KEY (run_id, metric, region, sector, channel)
);

-- The products nearest by deaths per kg (material route), for the product payload.
CREATE TABLE impact_nearest (
  run_id  INTEGER NOT NULL REFERENCES impact_runs(id),
  product TEXT NOT NULL,
  rank    INTEGER NOT NULL,
  other   TEXT NOT NULL,
  PRIMARY KEY (run_id, product, rank)
);

-- The source releases each product's figures used (the envelope's `sources`); subject '*' = the run.
CREATE TABLE impact_run_sources (
  run_id  INTEGER NOT NULL REFERENCES impact_runs(id),
  subject TEXT NOT NULL,
  source  TEXT NOT NULL,
  PRIMARY KEY (run_id, subject, source)
);
