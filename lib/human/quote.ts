/**
 * Quotes: the exact price of a capability at a location under an SLA, its due time and how long the
 * quote holds; or a refusal saying why, with alternatives that would be served (the same city under
 * another SLA, the nearest live cities), each with its price.
 *
 * A quote carries a `quote_id`: the quoted terms signed with a server secret. An order that sends it
 * before `expires_at` is charged the quoted price even if the catalogue changed in between; nothing is
 * stored per quote (quotes are public and anonymous, so they must cost no write).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { distanceKm } from './geo.ts';
import { invalidRequest } from './errors.ts';
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

export function quote(cat: CatalogueReads, req: QuoteRequest, now: number, secret: Buffer): QuoteAnswer {
  const { hours } = checkTerms(cat, req.capability, req.sla);
  const { country_iso, city_slug } = req.location;
  const price = cat.price(req.capability, country_iso, city_slug, req.sla);
  const currency = cat.currency();
  if (price !== undefined) {
    const dueAt = now + hours * 3_600_000;
    const expiresAt = now + QUOTE_VALID_MS;
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
    };
  }
  const slaHours = new Map(cat.slas().map((s) => [s.code, s.hours]));
  const served = cat.prices().filter((p) => p.capability === req.capability);
  const cities = new Map(cat.cities().map((c) => [`${c.country_iso}/${c.city_slug}`, c]));
  const here = served.filter((p) => p.country_iso === country_iso && p.city_slug === city_slug);
  const origin =
    cities.get(`${country_iso}/${city_slug}`) ?? centroid(cat.cities().filter((c) => c.country_iso === country_iso));
  const alt = (p: (typeof served)[number]): Alternative => {
    const city = cities.get(`${p.country_iso}/${p.city_slug}`)!;
    return {
      location: { country_iso: p.country_iso, city_slug: p.city_slug },
      city_name: city.name,
      sla: p.sla,
      price_cents: p.price_cents,
      due_in_s: (slaHours.get(p.sla) ?? 0) * 3600,
      distance_km: origin ? Math.round(distanceKm(origin, city)) : null,
    };
  };
  const elsewhere = served.filter((p) => !(p.country_iso === country_iso && p.city_slug === city_slug)).map(alt);
  // Nearest first; without coordinates for the asked place, the same country first, then by name.
  elsewhere.sort(
    (a, b) =>
      (a.distance_km ?? Infinity) - (b.distance_km ?? Infinity) ||
      Number(b.location.country_iso === country_iso) - Number(a.location.country_iso === country_iso) ||
      a.city_name.localeCompare(b.city_name) ||
      (slaHours.get(a.sla) ?? 0) - (slaHours.get(b.sla) ?? 0),
  );
  const sameSla = elsewhere.filter((a) => a.sla === req.sla);
  const nearest = (sameSla.length ? sameSla : elsewhere).slice(0, MAX_ALTERNATIVES);
  const place = `${country_iso}/${city_slug}`;
  if (here.length > 0) {
    return {
      status: 'refused',
      capability: req.capability,
      location: { country_iso, city_slug },
      sla: req.sla,
      reason: 'sla_not_served',
      currency,
      message: `${req.capability} is served in ${place}, but not with sla '${req.sla}'. Other SLAs there, and the nearest cities that offer '${req.sla}', are listed.`,
      alternatives: [...here.map(alt), ...nearest].slice(0, MAX_ALTERNATIVES + here.length),
    };
  }
  const known = cities.get(place);
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
