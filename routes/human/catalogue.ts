/**
 * The public, cacheable part of the human API: GET /capabilities, /capabilities/{capability},
 * /coverage (no key needed; a key is counted if sent) and POST /quote. Catalogue answers carry an
 * ETag that changes with every catalogue load and are built once per load; coverage also says who is
 * available now (lib/human/availability.ts), so its ETag is of its body and it is cached 30 s only.
 */
import { createHash } from 'node:crypto';
import { availabilityView, type AvailableCount } from '../../lib/human/availability.ts';
import { CACHEABLE_HEADERS } from '../../lib/http/contract-headers.ts';
import * as v from 'valibot';
import { definition, jsonSchemas } from '../../lib/human/capabilities.ts';
import { notFound } from '../../lib/human/errors.ts';
import { quoteTask } from '../../db/human/orders.ts';
import type { HumanService } from '../../db/human/service.ts';
import { MAX_FILE_BYTES, MAX_FILES } from '../../lib/human/uploads.ts';
import { QuoteBody } from '../../lib/human/inputs.ts';
import type { CapabilityRow, CityRow, PriceRow, SlaRow } from '../../lib/human/rows.ts';
import { defineOperation, type Operation } from '../../lib/http/operation.ts';
import { jsonReply, type ApiRequest, type Reply } from '../../lib/http/types.ts';
import { stringParam } from '../../lib/validate.ts';
import { BODY_REFUSALS, refusals } from './refusals.ts';
const capabilityParams = v.object({
  capability: stringParam({
    max: 100,
    pattern: /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/,
    accepts: 'a capability id such as human.verify',
    description: 'A capability id.',
  }),
});

/** One capability as the API shows it (GET /capabilities/{capability}, the MCP get_capability tool). */
function capabilityView(
  c: CapabilityRow,
  currency: string,
  slas: SlaRow[],
  prices: PriceRow[],
  cities: Map<string, CityRow>,
) {
  const def = definition(c.id)!;
  const own = prices.filter((p) => p.capability === c.id);
  const places = [...new Set(own.map((p) => `${p.country_iso}/${p.city_slug}`))].map((k) => cities.get(k)!);
  return {
    id: c.id,
    title: c.title,
    description: c.description,
    currency,
    spec_schema: jsonSchemas(c.id).spec,
    result_schema: jsonSchemas(c.id).result,
    evidence: {
      min_photos: def.evidence.minPhotos,
      documents: def.evidence.documents,
      media_types: ['image/jpeg', 'image/png', 'image/webp', ...(def.evidence.documents ? ['application/pdf'] : [])],
      max_file_bytes: MAX_FILE_BYTES,
      max_files: MAX_FILES,
    },
    slas: slas.filter((s) => own.some((p) => p.sla === s.code)),
    prices: own.map((p) => ({
      location: { country_iso: p.country_iso, city_slug: p.city_slug },
      city_name: cities.get(`${p.country_iso}/${p.city_slug}`)!.name,
      sla: p.sla,
      price_cents: p.price_cents,
    })),
    live_geographies: places.map((p) => ({ country_iso: p.country_iso, city_slug: p.city_slug, name: p.name })),
  };
}

export type CapabilityView = ReturnType<typeof capabilityView>;

/**
 * The catalogue as the API shows it, rebuilt when the catalogue version changes: the values (the MCP
 * tools use them) and, for the two list answers, their JSON text, serialized once per load (REST).
 */
export function catalogueViews(svc: HumanService) {
  let built:
    | {
        version: string;
        capabilities: Map<string, CapabilityView>;
        coverageData: ReturnType<typeof coverageView>;
        list: string;
      }
    | undefined;
  return () => {
    const cat = svc.catalogue;
    const version = cat.version();
    if (built?.version === version) return built;
    const currency = cat.currency();
    const slas = cat.slas();
    const prices = cat.prices();
    const cities = new Map(cat.cities().map((c) => [`${c.country_iso}/${c.city_slug}`, c]));
    const capabilities = new Map<string, CapabilityView>();
    for (const c of cat.capabilities()) capabilities.set(c.id, capabilityView(c, currency, slas, prices, cities));
    const coverageData = coverageView(cat.cities(), currency, slas, prices);
    built = {
      version,
      capabilities,
      coverageData,
      list: JSON.stringify({ data: [...capabilities.values()] }),
    };
    return built;
  };
}

/** GET /coverage: the live cities with a price, by country, and what each serves under which SLA. */
function coverageView(allCities: CityRow[], currency: string, slas: SlaRow[], prices: PriceRow[]) {
  const countries = new Map<
    string,
    Array<{
      city_slug: string;
      name: string;
      latitude: number;
      longitude: number;
      capabilities: Array<{ capability: string; slas: string[] }>;
    }>
  >();
  for (const city of allCities.filter((c) => c.live)) {
    const here = prices.filter((p) => p.country_iso === city.country_iso && p.city_slug === city.city_slug);
    if (here.length === 0) continue;
    const byCap = [...new Set(here.map((p) => p.capability))].map((capability) => ({
      capability,
      slas: here.filter((p) => p.capability === capability).map((p) => p.sla),
    }));
    const list = countries.get(city.country_iso) ?? [];
    list.push({
      city_slug: city.city_slug,
      name: city.name,
      latitude: city.latitude,
      longitude: city.longitude,
      capabilities: byCap,
    });
    countries.set(city.country_iso, list);
  }
  return { currency, slas, countries: [...countries].map(([country_iso, c]) => ({ country_iso, cities: c })) };
}

/**
 * Coverage as it is now: each city's capabilities with, per SLA, whether verified people are
 * available and the acceptance bound (GET /coverage, the MCP get_coverage tool).
 */
export function coverageNow(data: ReturnType<typeof coverageView>, available: AvailableCount) {
  const hours = new Map(data.slas.map((s) => [s.code, s.hours]));
  return {
    ...data,
    countries: data.countries.map((country) => ({
      ...country,
      cities: country.cities.map((city) => ({
        ...city,
        capabilities: city.capabilities.map((c) => {
          const count = available(country.country_iso, city.city_slug, c.capability);
          return {
            ...c,
            availability: c.slas.map((sla) => ({ sla, ...availabilityView(count, hours.get(sla) ?? 0) })),
          };
        }),
      })),
    })),
  };
}

/** A cacheable JSON answer; 304 when the client already has this catalogue version. */
function cacheable(req: ApiRequest, version: string, body: string, maxAgeS = 300): Reply {
  const etag = version.startsWith('"') ? version : `"human-catalogue-${version}"`;
  const headers = { 'cache-control': `public, max-age=${maxAgeS}`, etag, vary: 'Accept-Encoding' };
  const sent = req.headers['if-none-match'];
  if (typeof sent === 'string' && sent.split(',').some((t) => t.trim().replace(/^W\//, '') === etag))
    return { status: 304, headers };
  return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body };
}

export function catalogueOperations(svc: HumanService): Operation[] {
  const view = catalogueViews(svc);
  return [
    defineOperation({
      spec: {
        method: 'GET',
        path: '/capabilities',
        operationId: 'listCapabilities',
        summary: 'Every capability, with schemas, prices and live geographies',
        description: 'Public and cacheable (ETag; 304 with If-None-Match). No key needed.',
        responses: {
          200: { description: 'The capabilities', schema: 'CapabilityList', headers: CACHEABLE_HEADERS },
          304: { description: 'Not modified' },
        },
      },
      handle(req) {
        const b = view();
        return cacheable(req, b.version, b.list);
      },
    }),
    defineOperation({
      spec: {
        method: 'GET',
        path: '/capabilities/:capability',
        operationId: 'getCapability',
        summary: 'One capability',
        description:
          'Its spec and result JSON Schemas, evidence rule, SLAs, prices per city and SLA, and live geographies. Public and cacheable.',
        params: capabilityParams,
        responses: {
          200: { description: 'The capability', schema: 'CapabilityResponse', headers: CACHEABLE_HEADERS },
          304: { description: 'Not modified' },
          ...refusals('not_found'),
        },
      },
      handle(req, { params: { capability } }) {
        const b = view();
        const found = b.capabilities.get(capability);
        if (!found) throw notFound(`No capability '${capability}'. GET /capabilities lists them.`);
        return cacheable(req, b.version, JSON.stringify({ data: found }));
      },
    }),
    defineOperation({
      spec: {
        method: 'GET',
        path: '/coverage',
        operationId: 'getCoverage',
        summary: 'Live geographies: countries, cities, what each serves under which SLA, and who is available now',
        description:
          'Per city, capability and SLA: availability.available_now (verified people on duty who could take a live order now), availability.people (how many, as a band: 0, 1-2, 3-5, 6+) and accept_within_s (a live order nobody accepts within it expires, its hold released). Public; cacheable for 30 seconds (availability changes).',
        responses: {
          200: { description: 'Coverage', schema: 'Coverage', headers: CACHEABLE_HEADERS },
          304: { description: 'Not modified' },
        },
      },
      handle(req) {
        const body = JSON.stringify({ data: coverageNow(view().coverageData, svc.available(req.now)) });
        const etag = `"human-coverage-${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
        return cacheable(req, etag, body, 30);
      },
    }),
    defineOperation({
      spec: {
        method: 'POST',
        path: '/quote',
        operationId: 'quote',
        summary: 'The exact price, or a refusal with alternatives',
        description:
          'status quoted: price_cents, due_at, a quote_id honoured until expires_at, and availability (whether verified people are available there now, how many as a band, and accept_within_s); when nobody is, alternatives lists the nearest served cities where someone is, and a live order would be refused (409 no_one_available). status refused: the reason (location_not_served, sla_not_served) and alternatives that are served, with their prices and availability. An unknown capability or sla is a 400. Public: no key needed.',
        body: QuoteBody,
        responses: {
          200: { description: 'A quote or a refusal', schema: 'QuoteResponse' },
          ...refusals(...BODY_REFUSALS),
        },
      },
      handle(req, { body }) {
        return jsonReply(200, { data: quoteTask(svc, body, req.now) }, { 'cache-control': 'no-store' });
      },
    }),
  ];
}
