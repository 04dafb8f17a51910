/**
 * The register as the run engine reads it: plain data, one interface per table of
 * db/migrations/004_impact_register.sql (only the columns a computation needs). db/impact/register.ts
 * fills it from SQLite; tests build small ones by hand.
 */

import type { Basis } from './basis.ts';

export type Confidence = 'high' | 'medium' | 'low';
export type Metric = 'deaths' | 'injuries';
export const METRICS: readonly Metric[] = ['deaths', 'injuries'];

export interface SourceFact {
  code: string;
  enabled: boolean;
  licence_name: string | null;
  credit: string | null;
  usage_restriction: string | null;
  verified_on: string | null;
}
export interface Sector {
  code: string;
  name: string;
  kind: 'extraction' | 'manufacture' | 'services';
}
export interface Country {
  iso3: string;
  name: string;
  mrio_region: string;
}
export interface Channel {
  code: string;
  name: string;
  requires_paf: boolean;
}

export interface Material {
  slug: string;
  name: string;
  sector: string;
  price_eur_per_kg: number;
  price_source: string;
  /** What the price rests on (lib/impact/basis.ts); a row without one is read as illustrative. */
  price_basis?: Basis;
  /** Sources its price or production also rests on (a conversion factor's), beyond the rows' own. */
  also_sources?: string[];
}
/**
 * Production of one material in one year: world total and the listed countries, in tonnes. A country's
 * qty is null when the source withholds it or has none: it is listed, and carries no harm.
 */
export interface Production {
  material: string;
  year: number;
  unit: string;
  world_total: number | null;
  source: string;
  note: string | null;
  basis?: Basis;
  countries: Array<{ iso3: string; qty: number | null; quality: string; source: string; basis?: Basis }>;
}
export interface OtherOutput {
  sector: string;
  iso3: string;
  value_eur: number;
  source: string;
  basis?: Basis;
}

export interface Product {
  slug: string;
  name: string;
  tier: 'semi_finished' | 'finished';
  unit: string;
  unit_mass_g: number | null;
  is_arms: boolean;
  complete: boolean;
  bom_confidence: Confidence | null;
  price_eur: number;
  price_source: string;
  price_basis?: Basis;
  mrio_region: string;
  mrio_sector: string;
}
export interface BomLine {
  product: string;
  line: number;
  role: string;
  component_type: 'material' | 'product' | 'unmodelled';
  component_key: string | null;
  component_name: string | null;
  qty: number;
  unit: string;
  loss_factor: number;
  confidence: Confidence;
  /** The range the cited sources give (both or neither): it sets the spread of the line's draws. */
  qty_low?: number | null;
  qty_high?: number | null;
  basis?: Basis;
}

export interface Conflict {
  slug: string;
  name: string;
  resource_linked: boolean;
  source: string;
}
export interface ConflictPeriod {
  conflict: string;
  scenario: string;
  label: string;
  year_from: number;
  year_to: number;
  shares: Array<{ sector: string; share: number | null; confidence: Confidence | null; source: string; basis?: Basis }>;
}
export interface LedgerRow {
  conflict: string;
  iso3: string;
  year: number;
  deaths_best: number;
  deaths_low: number;
  deaths_high: number;
  quality: string;
  source: string;
  basis?: Basis;
}
/**
 * Counted harm outside the conflict ledger: channels C2–C4, and C1's organised violence the ledger does
 * not hold (activity 'other'). `activity` is what the source counts it under (an ISIC section for
 * ILOSTAT; 'all' when the count is the country's whole); shares are per activity.
 */
export interface HarmRow {
  iso3: string;
  channel: string;
  activity?: string;
  year: number;
  deaths: number | null;
  injuries: number | null;
  paf: number | null;
  quality: string;
  source: string;
  basis?: Basis;
}
export interface HarmShare {
  channel: string;
  iso3: string;
  activity?: string;
  sector: string;
  share: number;
  confidence: Confidence;
  source: string;
  basis?: Basis;
}

export interface Mrio {
  regions: string[];
  sectors: string[];
  /** output[r][s] million EUR */
  output: Record<string, Record<string, number>>;
  /** A entries: input from (fromRegion, fromSector) per EUR of (toRegion, toSector). */
  coefficients: Array<{
    from_region: string;
    from_sector: string;
    to_region: string;
    to_sector: string;
    value: number;
  }>;
  /** share of to_region's purchases of sector made in from_region */
  sourcing: Array<{ sector: string; from_region: string; to_region: string; share: number }>;
  /** What the table rests on as a whole (its output, coefficients and sourcing share one basis). */
  basis?: Basis;
}

export interface CoicopCode {
  code: string;
  level: 'division' | 'group';
  name: string;
  share_of_spend: number | null;
  share_source: string | null;
  bridge: Array<{ sector: string; share: number }>;
  left_out: Array<{ industry: string; why: string }>;
}

export interface Scenario {
  code: string;
  name: string;
  params: unknown;
}

export interface Register {
  data_version: string;
  illustrative: boolean;
  methodology: { code: string; document_sha256: string };
  sources: SourceFact[];
  sectors: Sector[];
  countries: Country[];
  channels: Channel[];
  materials: Material[];
  production: Production[];
  other_output: OtherOutput[];
  products: Product[];
  bom: BomLine[];
  conflicts: Conflict[];
  periods: ConflictPeriod[];
  ledger: LedgerRow[];
  harm: HarmRow[];
  harm_shares: HarmShare[];
  mrio: Mrio;
  coicop: CoicopCode[];
  scenarios: Scenario[];
  /** Sources every run uses whatever it computes (the methodology's own inputs). */
  always_sources: string[];
  /** Sources spend rows use besides the harm behind them (the COICOP classification). */
  spend_sources: string[];
}
