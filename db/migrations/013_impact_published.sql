-- Impact register from published data (issue 24). Every input row says where its value comes from:
-- a provenance row (source, release, basis, and the formula or rationale), referenced from the row.
-- Production may be unknown (withheld or not available in the source: NULL, never 0); counted harm
-- and its sector shares are kept per economic activity as the source reports them (ILOSTAT by ISIC
-- section, UCDP battle deaths apart from the rest of a country's organised violence); a bill-of-
-- materials line may carry the range its cited sources give. A run stores, for each headline, reach
-- total and spend row, the share of its value resting on each basis.

CREATE TABLE impact_provenance (
  id      INTEGER PRIMARY KEY,
  source  TEXT NOT NULL REFERENCES impact_sources(code),
  release TEXT,                         -- the source release the value was read from; NULL for authored inputs
  basis   TEXT NOT NULL CHECK (basis IN ('published', 'derived', 'assumption', 'illustrative')),
  method  TEXT,                         -- derived: the formula; assumption: the rationale; published: the unit conversion
  file    TEXT,                         -- the file under data/impact/ the value was read from
  FOREIGN KEY (source, release) REFERENCES impact_source_releases(source, release)
);

ALTER TABLE impact_sources ADD COLUMN reuse_open INTEGER CHECK (reuse_open IN (0, 1)); -- NULL: decided by the licence
ALTER TABLE impact_sources ADD COLUMN feeds TEXT;                 -- JSON array: what the register takes from it

ALTER TABLE impact_countries ADD COLUMN income_provenance INTEGER REFERENCES impact_provenance(id);
ALTER TABLE impact_countries ADD COLUMN wb_region TEXT;          -- World Bank region (NULL where the World Bank lists none)
ALTER TABLE impact_materials ADD COLUMN price_provenance INTEGER REFERENCES impact_provenance(id);
ALTER TABLE impact_material_world ADD COLUMN provenance INTEGER REFERENCES impact_provenance(id);
ALTER TABLE impact_sector_other_output ADD COLUMN provenance INTEGER REFERENCES impact_provenance(id);
ALTER TABLE impact_products ADD COLUMN price_provenance INTEGER REFERENCES impact_provenance(id);
ALTER TABLE impact_bom_lines ADD COLUMN provenance INTEGER REFERENCES impact_provenance(id);
ALTER TABLE impact_bom_lines ADD COLUMN qty_low REAL;        -- the range the cited sources give (both or neither)
ALTER TABLE impact_bom_lines ADD COLUMN qty_high REAL;
ALTER TABLE impact_bom_lines ADD COLUMN citations TEXT;      -- JSON array of the cited figures the line rests on
ALTER TABLE impact_conflicts ADD COLUMN provenance INTEGER REFERENCES impact_provenance(id);
ALTER TABLE impact_conflict_shares ADD COLUMN provenance INTEGER REFERENCES impact_provenance(id);
ALTER TABLE impact_mrio_output ADD COLUMN provenance INTEGER REFERENCES impact_provenance(id);
ALTER TABLE impact_mrio_sourcing ADD COLUMN provenance INTEGER REFERENCES impact_provenance(id);
ALTER TABLE impact_mrio_coefficients ADD COLUMN provenance INTEGER REFERENCES impact_provenance(id);
ALTER TABLE impact_coicop ADD COLUMN provenance INTEGER REFERENCES impact_provenance(id);
ALTER TABLE impact_coicop_bridge ADD COLUMN provenance INTEGER REFERENCES impact_provenance(id);

-- Production: qty NULL when the source withholds it (W) or has none (NA); the row stays, so the country
-- is listed as producing with an unknown quantity.
CREATE TABLE impact_material_production_new (
  material   TEXT NOT NULL,
  year       INTEGER NOT NULL,
  iso3       TEXT NOT NULL REFERENCES impact_countries(iso3),
  qty        REAL,
  quality    TEXT NOT NULL CHECK (quality IN ('reported', 'estimated', 'modelled', 'illustrative', 'withheld', 'not_available')),
  source     TEXT NOT NULL REFERENCES impact_sources(code),
  provenance INTEGER REFERENCES impact_provenance(id),
  CHECK ((qty IS NULL) = (quality IN ('withheld', 'not_available'))),
  PRIMARY KEY (material, year, iso3),
  FOREIGN KEY (material, year) REFERENCES impact_material_world(material, year)
);
INSERT INTO impact_material_production_new (material, year, iso3, qty, quality, source)
  SELECT material, year, iso3, qty, quality, source FROM impact_material_production;
DROP TABLE impact_material_production;
ALTER TABLE impact_material_production_new RENAME TO impact_material_production;

-- The conflict ledger: events and precisely located events are NULL where the source counts deaths
-- only (UCDP Battle-Related Deaths); the GED event file gives them.
CREATE TABLE impact_conflict_ledger_new (
  conflict       TEXT NOT NULL REFERENCES impact_conflicts(slug),
  iso3           TEXT NOT NULL REFERENCES impact_countries(iso3),
  year           INTEGER NOT NULL,
  events         INTEGER,
  deaths_best    INTEGER NOT NULL,
  deaths_low     INTEGER NOT NULL,
  deaths_high    INTEGER NOT NULL,
  precise_events INTEGER,
  quality        TEXT NOT NULL,
  source         TEXT NOT NULL REFERENCES impact_sources(code),
  provenance     INTEGER REFERENCES impact_provenance(id),
  CHECK ((events IS NULL) = (precise_events IS NULL)),
  PRIMARY KEY (conflict, iso3, year)
);
INSERT INTO impact_conflict_ledger_new (conflict, iso3, year, events, deaths_best, deaths_low, deaths_high, precise_events, quality, source)
  SELECT conflict, iso3, year, events, deaths_best, deaths_low, deaths_high, precise_events, quality, source FROM impact_conflict_ledger;
DROP TABLE impact_conflict_ledger;
ALTER TABLE impact_conflict_ledger_new RENAME TO impact_conflict_ledger;

-- Counted harm per country, channel, activity and year. activity: 'all' (the country's whole count), an
-- ISIC Rev.4 section letter (ILOSTAT reports by section), 'battle' (C1: battle deaths of state-based conflicts) or
-- 'other' (C1: organised violence the battle-death ledger leaves out: non-state and one-sided).
CREATE TABLE impact_harm_counted_new (
  iso3       TEXT NOT NULL REFERENCES impact_countries(iso3),
  channel    TEXT NOT NULL REFERENCES impact_channels(code),
  activity   TEXT NOT NULL DEFAULT 'all',
  year       INTEGER NOT NULL,
  deaths     INTEGER CHECK (deaths >= 0),      -- NULL where the source counts injuries only
  injuries   INTEGER CHECK (injuries >= 0),    -- NULL where the source counts none (UCDP)
  events     INTEGER,
  paf        REAL CHECK (paf BETWEEN 0 AND 1),
  quality    TEXT NOT NULL,
  source     TEXT NOT NULL REFERENCES impact_sources(code),
  note       TEXT,
  provenance INTEGER REFERENCES impact_provenance(id),
  CHECK (deaths IS NOT NULL OR injuries IS NOT NULL),
  PRIMARY KEY (iso3, channel, activity, year)
);
INSERT INTO impact_harm_counted_new (iso3, channel, activity, year, deaths, injuries, events, paf, quality, source, note)
  SELECT iso3, channel, CASE WHEN channel = 'C1' THEN 'battle' ELSE 'all' END, year, deaths, injuries, events, paf, quality, source, note
  FROM impact_harm_counted;
DROP TABLE impact_harm_counted;
ALTER TABLE impact_harm_counted_new RENAME TO impact_harm_counted;

CREATE TABLE impact_harm_sector_shares_new (
  channel    TEXT NOT NULL REFERENCES impact_channels(code),
  iso3       TEXT NOT NULL REFERENCES impact_countries(iso3),
  activity   TEXT NOT NULL DEFAULT 'all',
  sector     TEXT NOT NULL REFERENCES impact_sectors(code),
  share      REAL NOT NULL,
  confidence TEXT NOT NULL CHECK (confidence IN ('high', 'medium', 'low')),
  source     TEXT NOT NULL REFERENCES impact_sources(code),
  rationale  TEXT NOT NULL,
  provenance INTEGER REFERENCES impact_provenance(id),
  PRIMARY KEY (channel, iso3, activity, sector)
);
INSERT INTO impact_harm_sector_shares_new (channel, iso3, activity, sector, share, confidence, source, rationale)
  SELECT channel, iso3, 'all', sector, share, confidence, source, rationale FROM impact_harm_sector_shares;
DROP TABLE impact_harm_sector_shares;
ALTER TABLE impact_harm_sector_shares_new RENAME TO impact_harm_sector_shares;

-- The share of each figure's value (of its mean) resting on each basis: NULL on rows written before
-- this migration, on breakdown parts (their headline carries it) and where nothing was attributed.
ALTER TABLE impact_figures ADD COLUMN prov_published REAL;
ALTER TABLE impact_figures ADD COLUMN prov_derived REAL;
ALTER TABLE impact_figures ADD COLUMN prov_assumption REAL;
ALTER TABLE impact_figures ADD COLUMN prov_illustrative REAL;
ALTER TABLE impact_contributions ADD COLUMN prov_published REAL;
ALTER TABLE impact_contributions ADD COLUMN prov_derived REAL;
ALTER TABLE impact_contributions ADD COLUMN prov_assumption REAL;
ALTER TABLE impact_contributions ADD COLUMN prov_illustrative REAL;
ALTER TABLE impact_reach ADD COLUMN prov_published REAL;
ALTER TABLE impact_reach ADD COLUMN prov_derived REAL;
ALTER TABLE impact_reach ADD COLUMN prov_assumption REAL;
ALTER TABLE impact_reach ADD COLUMN prov_illustrative REAL;
ALTER TABLE impact_spend ADD COLUMN prov_published REAL;
ALTER TABLE impact_spend ADD COLUMN prov_derived REAL;
ALTER TABLE impact_spend ADD COLUMN prov_assumption REAL;
ALTER TABLE impact_spend ADD COLUMN prov_illustrative REAL;
