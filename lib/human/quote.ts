/**
 * Quotes: the exact price of a capability at a location under an SLA, its due time, how long the
 * quote holds and whether verified people are available there now (lib/human/availability.ts; when
 * nobody is, the nearest cities where someone is); or a refusal saying why, with alternatives that
 * would be served (the same city under another SLA, the nearest live cities), each with its price and
 * availability.
 *
 * A quote carries a `quote_id`: the quoted terms signed with a server secret. An order that sends it
 * before `expires_at` is charged the quoted price even if the catalogue changed in between; nothing is
 * stored per quote (quotes are public and anonymous, so they must cost no write).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { distanceKm } from './geo.ts';
import { invalidRequest } from './errors.ts';
import { availabilityView, type AvailabilityJson, type AvailableCount } from './availability.ts';
import type { CatalogueReads, CityRow } from './rows.ts';

export const QUOTE_VALID_MS = 15 * 60_000;
const MAX_ALTERNATIVES = 5;

export interface Location {
  country_iso: string;
  city_slug: string;
}
export interface QuoteRequest {
  capability: string;
  location: Location;
  sla: string;
}

export interface Alternative {
  location: Location;
  city_name: string;
  sla: string;
  price_cents: number;
  due_in_s: number;
  distance_km: number | null;
  /** Someone is on duty there now for this capability (a live order would be offered to them). */
  available_now: boolean;
  people: AvailabilityJson['people'];
}

export type QuoteAnswer =
  | {
      status: 'quoted';
      capability: string;
      location: Location;
      city_name: string;
      sla: string;
      price_cents: number;
      currency: string;
      due_at: string;
      due_in_s: number;
      expires_at: string;
      quote_id: string;
      availability: AvailabilityJson;
      /** When nobody is available here now: the nearest served cities where someone is. */
      alternatives: Alternative[];
    }
  | {
      status: 'refused';
      capability: string;
      location: Location;
      sla: string;
      reason: 'location_not_served' | 'sla_not_served';
      message: string;
      currency: string;
      alternatives: Alternative[];
    };

/** Refuses (400) a capability or SLA that does not exist at all: those are mistakes, not refusals. */
export function checkTerms(cat: CatalogueReads, capability: string, sla: string): { hours: number } {
  if (!cat.capability(capability)) {
    throw invalidRequest(
      `Unknown capability '${capability}'. Known: ${cat
        .capabilities()
        .map((c) => c.id)
        .join(', ')}.`,
      'capability',
    );
  }
  const row = cat.sla(sla);
  if (!row)
    throw invalidRequest(
      `Unknown sla '${sla}'. Known: ${cat
        .slas()
        .map((s) => s.code)
        .join(', ')}.`,
      'sla',
    );
  return { hours: row.hours };
}

export function quote(
  cat: CatalogueReads,
  req: QuoteRequest,
  now: number,
  secret: Buffer,
  available: AvailableCount,
): QuoteAnswer {
  const { hours } = checkTerms(cat, req.capability, req.sla);
  const { country_iso, city_slug } = req.location;
  const price = cat.price(req.capability, country_iso, city_slug, req.sla);
  const currency = cat.currency();
  const place = `${country_iso}/${city_slug}`;
  if (price !== undefined) {
    const dueAt = now + hours * 3_600_000;
    const expiresAt = now + QUOTE_VALID_MS;
    const availability = availabilityView(available(country_iso, city_slug, req.capability), hours);
    return {
      status: 'quoted',
      capability: req.capability,
      location: { country_iso, city_slug },
      city_name: cat.city(country_iso, city_slug)!.name,
      sla: req.sla,
      price_cents: price,
      currency,
      due_at: new Date(dueAt).toISOString(),
      due_in_s: hours * 3600,
      expires_at: new Date(expiresAt).toISOString(),
      quote_id: signQuote(
        { capability: req.capability, country_iso, city_slug, sla: req.sla, price_cents: price, expires_at: expiresAt },
        secret,
      ),
      availability,
      alternatives: availability.available_now
        ? []
        : alternatives(cat, req, available, { onlyAvailable: true }).nearest,
    };
  }
  const { here, nearest, origin } = alternatives(cat, req, available, { onlyAvailable: false });
  if (here.length > 0) {
    return {
      status: 'refused',
      capability: req.capability,
      location: { country_iso, city_slug },
      sla: req.sla,
      reason: 'sla_not_served',
      currency,
      message: `${req.capability} is served in ${place}, but not with sla '${req.sla}'. Other SLAs there, and the nearest cities that offer '${req.sla}', are listed.`,
      alternatives: [...here, ...nearest].slice(0, MAX_ALTERNATIVES + here.length),
    };
  }
  const known = cat.city(country_iso, city_slug);
  return {
    status: 'refused',
    capability: req.capability,
    location: { country_iso, city_slug },
    sla: req.sla,
    reason: 'location_not_served',
    currency,
    message: known
      ? `${req.capability} is not served in ${known.name} (${place}) yet. The nearest cities where it is are listed.`
      : `${place} is not a city we serve. The nearest live cities${origin ? '' : ' we can suggest'} are listed.`,
    alternatives: nearest,
  };
}

/**
 * What is served instead: `here`, the same city under other SLAs; `nearest`, the nearest other
 * cities (the asked SLA first), only those where someone is available now when `onlyAvailable`.
 */
export function alternatives(
  cat: CatalogueReads,
  req: QuoteRequest,
  available: AvailableCount,
  opts: { onlyAvailable: boolean; exceptAccount?: number },
) {
  const { country_iso, city_slug } = req.location;
  const slaHours = new Map(cat.slas().map((s) => [s.code, s.hours]));
  const served = cat.prices().filter((p) => p.capability === req.capability);
  const cities = new Map(cat.cities().map((c) => [`${c.country_iso}/${c.city_slug}`, c]));
  const origin =
    cities.get(`${country_iso}/${city_slug}`) ?? centroid(cat.cities().filter((c) => c.country_iso === country_iso));
  const counts = new Map<string, number>();
  const countAt = (country: string, city: string) => {
    const key = `${country}/${city}`;
    let n = counts.get(key);
    if (n === undefined) counts.set(key, (n = available(country, city, req.capability, opts.exceptAccount)));
    return n;
  };
  const alt = (p: (typeof served)[number]): Alternative => {
    const city = cities.get(`${p.country_iso}/${p.city_slug}`)!;
    const people = availabilityView(countAt(p.country_iso, p.city_slug), slaHours.get(p.sla) ?? 0);
    return {
      location: { country_iso: p.country_iso, city_slug: p.city_slug },
      city_name: city.name,
      sla: p.sla,
      price_cents: p.price_cents,
      due_in_s: (slaHours.get(p.sla) ?? 0) * 3600,
      distance_km: origin ? Math.round(distanceKm(origin, city)) : null,
      available_now: people.available_now,
      people: people.people,
    };
  };
  const isHere = (p: { country_iso: string; city_slug: string }) =>
    p.country_iso === country_iso && p.city_slug === city_slug;
  const here = served.filter((p) => isHere(p) && p.sla !== req.sla).map(alt);
  const elsewhere = served
    .filter((p) => !isHere(p))
    .map(alt)
    .filter((a) => !opts.onlyAvailable || a.available_now);
  // Nearest first; without coordinates for the asked place, the same country first, then by name.
  elsewhere.sort(
    (a, b) =>
      (a.distance_km ?? Infinity) - (b.distance_km ?? Infinity) ||
      Number(b.location.country_iso === country_iso) - Number(a.location.country_iso === country_iso) ||
      a.city_name.localeCompare(b.city_name) ||
      (slaHours.get(a.sla) ?? 0) - (slaHours.get(b.sla) ?? 0),
  );
  const sameSla = elsewhere.filter((a) => a.sla === req.sla);
  return { here, nearest: (sameSla.length ? sameSla : elsewhere).slice(0, MAX_ALTERNATIVES), origin };
}

function centroid(cities: CityRow[]): { latitude: number; longitude: number } | undefined {
  if (cities.length === 0) return undefined;
  return {
    latitude: cities.reduce((s, c) => s + c.latitude, 0) / cities.length,
    longitude: cities.reduce((s, c) => s + c.longitude, 0) / cities.length,
  };
}

export interface QuotedTerms {
  capability: string;
  country_iso: string;
  city_slug: string;
  sla: string;
  price_cents: number;
  expires_at: number;
}

const sign = (payload: string, secret: Buffer) =>
  createHmac('sha256', secret).update(payload).digest('base64url').slice(0, 32);

export function signQuote(terms: QuotedTerms, secret: Buffer): string {
  const payload = Buffer.from(
    JSON.stringify([
      terms.capability,
      terms.country_iso,
      terms.city_slug,
      terms.sla,
      terms.price_cents,
      terms.expires_at,
    ]),
  ).toString('base64url');
  return `qt_${payload}.${sign(payload, secret)}`;
}

/** The terms a quote_id signs, or null when it is not one of ours (or was tampered with). */
export function readQuote(id: string, secret: Buffer): QuotedTerms | null {
  const m = /^qt_([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{32})$/.exec(id);
  if (!m) return null;
  const expected = Buffer.from(sign(m[1]!, secret));
  const given = Buffer.from(m[2]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const [capability, country_iso, city_slug, sla, price_cents, expires_at] = JSON.parse(
      Buffer.from(m[1]!, 'base64url').toString('utf8'),
    ) as [string, string, string, string, number, number];
    return { capability, country_iso, city_slug, sla, price_cents, expires_at };
  } catch {
    return null;
  }
}
