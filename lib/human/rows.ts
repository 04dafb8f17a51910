/**
 * The shapes of the human service's stored rows, as the pure rules see them (present.ts, quote.ts,
 * delivery checks). db/human/ reads and writes them and re-exports these types; they are here so that
 * lib/ never imports db/ (docs/architecture.md).
 */
import type { SandboxPlan } from './sandbox.ts';
import type { Status } from './states.ts';

export interface TaskRow {
  id: number;
  ref: string;
  account_id: number;
  key_id: number;
  environment: 'test' | 'live';
  capability: string;
  spec: string;
  country_iso: string;
  city_slug: string;
  sla: string;
  price_cents: number;
  max_price_cents: number;
  currency: string;
  status: Status;
  version: number;
  sandbox_plan: SandboxPlan | null;
  worker_account_id: number | null;
  created_at: number;
  updated_at: number;
  due_at: number;
  dispatched_at: number | null;
  started_at: number | null;
  delivered_at: number | null;
  dispute_deadline: number | null;
  closed_at: number | null;
  answer: string | null;
  confidence_bps: number | null;
  cancel_reason: string | null;
  failure_reason: string | null;
  dispute_reason: string | null;
  dispute_statement: string | null;
  disputed_at: number | null;
  resolution: 'answer_stands' | 'refunded' | null;
  resolution_note: string | null;
  resolved_at: number | null;
  next_check_at: number | null;
  /** JSON object of the client's own short strings (lib/human/inputs.ts Metadata), or null. */
  metadata: string | null;
  client_reference: string | null;
  /** A live task still pending then is expired as not accepted (lib/human/availability.ts). */
  accept_by: number | null;
  expiry_reason: 'not_accepted' | 'sla_passed' | null;
}

export interface EvidenceRow {
  id: number;
  kind: 'photo' | 'note' | 'document';
  filename: string | null;
  note: string | null;
  captured_at: number | null;
  captured_source: string | null;
  latitude: number | null;
  longitude: number | null;
  accuracy_m: number | null;
  position_source: string | null;
  synthetic: 0 | 1;
  created_at: number;
  sha256: string | null;
  media_type: string | null;
  size: number | null;
}

export interface CapabilityRow {
  id: string;
  title: string;
  description: string;
}
export interface SlaRow {
  code: string;
  title: string;
  hours: number;
}
export interface CityRow {
  country_iso: string;
  city_slug: string;
  name: string;
  latitude: number;
  longitude: number;
  live: 0 | 1;
}
export interface PriceRow {
  capability: string;
  country_iso: string;
  city_slug: string;
  sla: string;
  price_cents: number;
}

/**
 * The catalogue as one immutable snapshot per version, read from the tables once per load: an order or
 * a quote then costs one query (is the version still current?) instead of one per lookup. A load in
 * another process (`catalogue load`) bumps the version row, so it is seen on the next request.
 */
export interface CatalogueReads {
  /** Changes with every load: the cache key (and ETag) of the public catalogue answers. */
  version(): string;
  currency(): string;
  capabilities(): CapabilityRow[];
  capability(id: string): CapabilityRow | undefined;
  slas(): SlaRow[];
  sla(code: string): SlaRow | undefined;
  city(countryIso: string, citySlug: string): CityRow | undefined;
  cities(): CityRow[];
  price(capability: string, countryIso: string, citySlug: string, sla: string): number | undefined;
  /** Every served (capability, city, SLA) with its price. Small: capabilities × live cities × SLAs. */
  prices(): PriceRow[];
}
