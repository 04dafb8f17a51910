-- Impact attribution register (issue 6): every fact the impact document's payloads name, loaded from
-- fixtures/impact/ by db/impact/load.ts. Runs and their figures are in 005_impact_runs.sql.
-- Free-form objects the document leaves open (flags, attribution, params, links) are JSON text.
-- Nullable columns are nullable on purpose: a fact we do not have is NULL with its reason, never a guess.

CREATE TABLE impact_register_meta (
  key   TEXT PRIMARY KEY,                -- data_version | loaded_at | fixtures_sha256 | illustrative
  value TEXT NOT NULL
);

CREATE TABLE impact_sources (
  code              TEXT PRIMARY KEY,
  name              TEXT NOT NULL,
  publisher         TEXT NOT NULL,
  homepage          TEXT NOT NULL,
  enabled           INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  verified_on       TEXT,                -- YYYY-MM-DD we checked the facts against the source; NULL = not verified
  basis             TEXT,                -- how the facts were obtained, and why verified_on is NULL when it is
  licence_name      TEXT,                -- NULL only to be caught by the licence gate
  licence_url       TEXT,
  licence_spdx      TEXT,
  credit            TEXT,                -- the credit the licence requires, shown with every figure using it
  usage_restriction TEXT,                -- e.g. 'non-commercial' (GBD); NULL when none
  note              TEXT
);

CREATE TABLE impact_source_releases (
  source       TEXT NOT NULL REFERENCES impact_sources(code),
  release      TEXT NOT NULL,
  published_on TEXT,
  accessed_on  TEXT,
  url          TEXT,
  note         TEXT,
  PRIMARY KEY (source, release)
);

CREATE TABLE impact_mrio_regions (
  code    TEXT PRIMARY KEY,              -- an ISO alpha-3 where the region is one country (CHN), else EUR/ROW
  name    TEXT NOT NULL,
  ordinal INTEGER NOT NULL,
  note    TEXT
);

CREATE TABLE impact_sectors (
  code    TEXT PRIMARY KEY,              -- AGR, MIN-ORE, …: the input-output table's sectors, also the allocation sectors
  name    TEXT NOT NULL,
  isic    TEXT NOT NULL,                 -- ISIC Rev.4 sections/divisions the sector stands for
  kind    TEXT NOT NULL CHECK (kind IN ('extraction', 'manufacture', 'services')),
  ordinal INTEGER NOT NULL
);

CREATE TABLE impact_countries (
  iso3                   TEXT PRIMARY KEY CHECK (iso3 GLOB '[A-Z][A-Z][A-Z]'),
  iso2                   TEXT NOT NULL,
  numeric                TEXT NOT NULL,
  name                   TEXT NOT NULL,   -- ISO 3166-1 short name (package iso-3166-1)
  region                 TEXT NOT NULL,   -- served as `region`: the M49 sub-region (else region; see region_note)
  m49_region_code        TEXT,
  m49_region             TEXT,
  m49_subregion_code     TEXT,
  m49_subregion          TEXT,
  m49_intermediate_code  TEXT,
  m49_intermediate       TEXT,
  region_note            TEXT,            -- set where M49 has no entry and the region comes from an override
  income_group           TEXT,            -- World Bank: 'High income' … 'Low income'; NULL = not classified
  income_group_code      TEXT CHECK (income_group_code IN ('HIC', 'UMC', 'LMC', 'LIC')),
  income_source          TEXT REFERENCES impact_sources(code),
  mrio_region            TEXT NOT NULL REFERENCES impact_mrio_regions(code)
);

CREATE TABLE impact_channels (
  code           TEXT PRIMARY KEY CHECK (code GLOB 'C[1-5]'),
  name           TEXT NOT NULL,
  description    TEXT NOT NULL,
  requires_paf   INTEGER NOT NULL CHECK (requires_paf IN (0, 1)),
  exclusion_rule TEXT NOT NULL,
  attribution    TEXT,                    -- JSON object: the channel's attribution rule, causal_claim false
  ordinal        INTEGER NOT NULL
);

CREATE TABLE impact_scenarios (
  code        TEXT PRIMARY KEY CHECK (code IN ('S-MAX', 'S-EVID', 'S-RES', 'S-ARMS', 'S-CONS')),
  name        TEXT NOT NULL,
  description TEXT NOT NULL,
  is_default  INTEGER NOT NULL CHECK (is_default IN (0, 1)),
  params      TEXT NOT NULL,              -- JSON, parsed by lib/impact/scenario.ts
  ordinal     INTEGER NOT NULL
);
CREATE UNIQUE INDEX impact_scenarios_one_default ON impact_scenarios(is_default) WHERE is_default = 1;

CREATE TABLE impact_methodology_versions (
  code            TEXT PRIMARY KEY,       -- 'v1'
  version         TEXT NOT NULL,          -- '1.0.0'
  published_on    TEXT,
  summary         TEXT NOT NULL,
  frozen          INTEGER NOT NULL CHECK (frozen IN (0, 1)),
  document_path   TEXT NOT NULL,          -- docs/methodology/v1.md
  document_sha256 TEXT NOT NULL CHECK (length(document_sha256) = 64), -- of that file, computed at load
  links           TEXT NOT NULL           -- JSON object
);

-- Materials and where they are produced.
CREATE TABLE impact_materials (
  slug                    TEXT PRIMARY KEY,
  name                    TEXT NOT NULL,
  category                TEXT NOT NULL,  -- metal ore | industrial mineral | agricultural commodity …
  unit                    TEXT NOT NULL,  -- the unit bills of materials use ('kg')
  content_basis           TEXT,           -- what a kg is a kg of ('Li content', 'ore, gross weight' …)
  sector                  TEXT NOT NULL REFERENCES impact_sectors(code),
  flags                   TEXT NOT NULL,  -- JSON object of booleans
  criticality_level       TEXT NOT NULL,
  criticality_source      TEXT NOT NULL,
  conflict_mineral        INTEGER NOT NULL CHECK (conflict_mineral IN (0, 1)),
  conflict_mineral_source TEXT NOT NULL,
  price_eur_per_kg        REAL NOT NULL CHECK (price_eur_per_kg > 0), -- allocates a sector's harm by value
  price_source            TEXT NOT NULL REFERENCES impact_sources(code),
  note                    TEXT NOT NULL
);

CREATE TABLE impact_material_world (
  material    TEXT NOT NULL REFERENCES impact_materials(slug),
  year        INTEGER NOT NULL,
  unit        TEXT NOT NULL,              -- 't' (tonnes of content_basis)
  world_total REAL,                       -- NULL when the source gives none (then the listed sum is used)
  source      TEXT NOT NULL REFERENCES impact_sources(code),
  quality     TEXT NOT NULL,
  note        TEXT,                       -- e.g. why listed countries add up to more than the rounded total
  PRIMARY KEY (material, year)
);

CREATE TABLE impact_material_production (
  material TEXT NOT NULL,
  year     INTEGER NOT NULL,
  iso3     TEXT NOT NULL REFERENCES impact_countries(iso3),
  qty      REAL NOT NULL,                 -- in impact_material_world.unit
  quality  TEXT NOT NULL CHECK (quality IN ('reported', 'estimated', 'modelled', 'illustrative')),
  source   TEXT NOT NULL REFERENCES impact_sources(code),
  PRIMARY KEY (material, year, iso3),
  FOREIGN KEY (material, year) REFERENCES impact_material_world(material, year)
);

-- Output of an allocation sector in a country that is not one of the register's materials: it takes its
-- value share of the sector's harm, so listed materials are not charged with the whole sector's.
CREATE TABLE impact_sector_other_output (
  sector    TEXT NOT NULL REFERENCES impact_sectors(code),
  iso3      TEXT NOT NULL REFERENCES impact_countries(iso3),
  value_eur REAL NOT NULL CHECK (value_eur >= 0),
  source    TEXT NOT NULL REFERENCES impact_sources(code),
  note      TEXT,
  PRIMARY KEY (sector, iso3)
);

-- Products and their bills of materials.
CREATE TABLE impact_product_categories (
  code TEXT PRIMARY KEY,
  name TEXT NOT NULL
);

CREATE TABLE impact_products (
  slug           TEXT PRIMARY KEY,
  name           TEXT NOT NULL,
  tier           TEXT NOT NULL CHECK (tier IN ('semi_finished', 'finished')),
  category       TEXT NOT NULL REFERENCES impact_product_categories(code),
  unit           TEXT NOT NULL,           -- piece | kg | kWh | pair …
  unit_label     TEXT NOT NULL,
  unit_mass_g    REAL CHECK (unit_mass_g > 0),
  archetype      TEXT NOT NULL,
  status         TEXT NOT NULL,           -- illustrative | reviewed
  is_arms        INTEGER NOT NULL CHECK (is_arms IN (0, 1)),
  complete       INTEGER NOT NULL CHECK (complete IN (0, 1)), -- derived at load: every line modelled
  bom_confidence TEXT CHECK (bom_confidence IN ('high', 'medium', 'low')), -- derived at load
  price_eur      REAL NOT NULL CHECK (price_eur > 0), -- per unit, purchaser price: the input-output route
  price_source   TEXT NOT NULL REFERENCES impact_sources(code),
  mrio_region    TEXT NOT NULL REFERENCES impact_mrio_regions(code), -- where the last stage is made
  mrio_sector    TEXT NOT NULL REFERENCES impact_sectors(code),
  note           TEXT
);

CREATE TABLE impact_bom_lines (
  product        TEXT NOT NULL REFERENCES impact_products(slug),
  line           INTEGER NOT NULL,
  role           TEXT NOT NULL,
  component_type TEXT NOT NULL CHECK (component_type IN ('material', 'product', 'unmodelled')),
  component_key  TEXT,                    -- a material or product slug; NULL when unmodelled
  component_name TEXT,
  qty            REAL NOT NULL,
  unit           TEXT NOT NULL,           -- g | kg for materials; the component product's unit for products
  loss_factor    REAL NOT NULL,           -- extra fraction lost in making: qty × (1 + loss_factor) goes in
  source_text    TEXT NOT NULL,
  source_url     TEXT NOT NULL,
  confidence     TEXT NOT NULL CHECK (confidence IN ('high', 'medium', 'low')),
  note           TEXT,
  PRIMARY KEY (product, line)
);
CREATE INDEX impact_bom_lines_component ON impact_bom_lines(component_type, component_key);

-- The raw inputs of one unit (the bill of materials flattened through semi-finished products, losses
-- included), derived at load: materials in kg, unmodelled parts in their own unit. A register fact,
-- served while figures are withheld. Products on a bill-of-materials cycle have none.
CREATE TABLE impact_product_raw_inputs (
  product TEXT NOT NULL REFERENCES impact_products(slug),
  seq     INTEGER NOT NULL,
  type    TEXT NOT NULL CHECK (type IN ('material', 'unmodelled')),
  key     TEXT,                           -- material slug; NULL when unmodelled
  name    TEXT NOT NULL,
  qty     REAL NOT NULL,
  unit    TEXT NOT NULL,
  PRIMARY KEY (product, seq)
);

-- Conflicts, their attribution to sectors per scenario, and their death ledger.
CREATE TABLE impact_conflicts (
  slug             TEXT PRIMARY KEY,
  name             TEXT NOT NULL,
  ucdp_conflict_id INTEGER,               -- NULL unless verified against UCDP data; ucdp_id_note says why
  ucdp_id_note     TEXT,
  type             TEXT NOT NULL,         -- UCDP type_of_violence wording: state-based | non-state | one-sided
  region           TEXT NOT NULL,
  year_from        INTEGER,
  year_to          INTEGER,
  resource_linked  INTEGER NOT NULL CHECK (resource_linked IN (0, 1)),
  note             TEXT NOT NULL,
  source           TEXT NOT NULL REFERENCES impact_sources(code)
);

CREATE TABLE impact_conflict_periods (
  conflict  TEXT NOT NULL REFERENCES impact_conflicts(slug),
  scenario  TEXT NOT NULL REFERENCES impact_scenarios(code),
  label     TEXT NOT NULL,
  year_from INTEGER NOT NULL,
  year_to   INTEGER NOT NULL,
  rationale TEXT NOT NULL,
  ordinal   INTEGER NOT NULL,
  PRIMARY KEY (conflict, scenario, label)
);

CREATE TABLE impact_conflict_shares (
  conflict   TEXT NOT NULL,
  scenario   TEXT NOT NULL,
  label      TEXT NOT NULL,
  sector     TEXT NOT NULL REFERENCES impact_sectors(code),
  share      REAL,                        -- NULL: no share can be stated; nothing is attributed
  confidence TEXT CHECK (confidence IN ('high', 'medium', 'low')),
  source     TEXT NOT NULL REFERENCES impact_sources(code),
  PRIMARY KEY (conflict, scenario, label, sector),
  FOREIGN KEY (conflict, scenario, label) REFERENCES impact_conflict_periods(conflict, scenario, label)
);

CREATE TABLE impact_conflict_ledger (
  conflict       TEXT NOT NULL REFERENCES impact_conflicts(slug),
  iso3           TEXT NOT NULL REFERENCES impact_countries(iso3),
  year           INTEGER NOT NULL,
  events         INTEGER NOT NULL,
  deaths_best    INTEGER NOT NULL,
  deaths_low     INTEGER NOT NULL,
  deaths_high    INTEGER NOT NULL,
  precise_events INTEGER NOT NULL,        -- events located to a place (GED where_prec 1–2)
  quality        TEXT NOT NULL,
  source         TEXT NOT NULL REFERENCES impact_sources(code),
  PRIMARY KEY (conflict, iso3, year)
);

-- Harm counted per country, channel and year. C1 rows are the ledger summed at load.
CREATE TABLE impact_harm_counted (
  iso3       TEXT NOT NULL REFERENCES impact_countries(iso3),
  channel    TEXT NOT NULL REFERENCES impact_channels(code),
  year       INTEGER NOT NULL,
  deaths     INTEGER NOT NULL CHECK (deaths >= 0),
  injuries   INTEGER CHECK (injuries >= 0), -- NULL where the source counts none (UCDP)
  events     INTEGER,
  paf        REAL CHECK (paf BETWEEN 0 AND 1), -- for requires_paf channels: deaths are all-cause × paf
  quality    TEXT NOT NULL,
  source     TEXT NOT NULL REFERENCES impact_sources(code),
  note       TEXT,
  PRIMARY KEY (iso3, channel, year)
);

-- Shares of a country's C2–C4 harm attributed to sectors (C1 shares are per conflict, above).
CREATE TABLE impact_harm_sector_shares (
  channel    TEXT NOT NULL REFERENCES impact_channels(code),
  iso3       TEXT NOT NULL REFERENCES impact_countries(iso3),
  sector     TEXT NOT NULL REFERENCES impact_sectors(code),
  share      REAL NOT NULL,
  confidence TEXT NOT NULL CHECK (confidence IN ('high', 'medium', 'low')),
  source     TEXT NOT NULL REFERENCES impact_sources(code),
  rationale  TEXT NOT NULL,
  PRIMARY KEY (channel, iso3, sector)
);

-- The small multi-regional input-output table (million EUR, basic prices; illustrative, see fixtures).
CREATE TABLE impact_mrio_output (
  region      TEXT NOT NULL REFERENCES impact_mrio_regions(code),
  sector      TEXT NOT NULL REFERENCES impact_sectors(code),
  output_meur REAL NOT NULL CHECK (output_meur > 0),
  PRIMARY KEY (region, sector)
);

CREATE TABLE impact_mrio_sourcing (      -- share of region `to_region`'s purchases of `sector` made in `from_region`
  sector      TEXT NOT NULL REFERENCES impact_sectors(code),
  from_region TEXT NOT NULL REFERENCES impact_mrio_regions(code),
  to_region   TEXT NOT NULL REFERENCES impact_mrio_regions(code),
  share       REAL NOT NULL CHECK (share >= 0 AND share <= 1),
  PRIMARY KEY (sector, from_region, to_region)
);

CREATE TABLE impact_mrio_coefficients (  -- A: input from (from_region, from_sector) per EUR of (to_region, to_sector)
  from_region TEXT NOT NULL REFERENCES impact_mrio_regions(code),
  from_sector TEXT NOT NULL REFERENCES impact_sectors(code),
  to_region   TEXT NOT NULL REFERENCES impact_mrio_regions(code),
  to_sector   TEXT NOT NULL REFERENCES impact_sectors(code),
  value       REAL NOT NULL CHECK (value > 0),
  PRIMARY KEY (from_region, from_sector, to_region, to_sector)
);

-- COICOP 2018 divisions (and the few groups the demo bridges) and their bridge to sectors.
CREATE TABLE impact_coicop (
  code           TEXT PRIMARY KEY,        -- '07' (division) or '07-01' (division-group, i.e. 07.1)
  level          TEXT NOT NULL CHECK (level IN ('division', 'group')),
  parent         TEXT REFERENCES impact_coicop(code),
  name           TEXT NOT NULL,
  group_code     TEXT NOT NULL CHECK (group_code IN ('household', 'npish', 'government')),
  share_of_spend REAL,                    -- of the consumer's individual consumption; NULL if unknown
  share_source   TEXT REFERENCES impact_sources(code),
  note           TEXT NOT NULL
);

CREATE TABLE impact_coicop_bridge (      -- EUR of a sector's basic-price output per purchaser-price EUR spent
  code   TEXT NOT NULL REFERENCES impact_coicop(code),
  sector TEXT NOT NULL REFERENCES impact_sectors(code),
  share  REAL NOT NULL CHECK (share > 0 AND share <= 1),
  PRIMARY KEY (code, sector)
);

CREATE TABLE impact_coicop_left_out (
  code     TEXT NOT NULL REFERENCES impact_coicop(code),
  industry TEXT NOT NULL,
  why      TEXT NOT NULL,
  PRIMARY KEY (code, industry)
);
