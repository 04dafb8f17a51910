/**
 * The rows of the synthetic funding corpus for `npm run bench -- funding` (bench/funding-corpus.ts
 * writes and caches them).
 *
 * Deterministic: every row draws from its own seeded PRNG (mulberry32 over a hash of the row number),
 * so the same N and GENERATOR_VERSION always give the same rows, in the same order, whatever else
 * changes. No Math.random, no wall clock: dates are laid out around the fixed CORPUS_NOW, and the
 * bench server's clock is pinned to it.
 *
 * Shape (what matters for the query plans, not for prose quality):
 * - sources bdns 62 %, boe 13 %, eu 25 %; countries ES for bdns/boe, EU (85 %) or a member state for eu;
 * - Spanish text for bdns/boe, English for eu, from a Zipf–Mandelbrot vocabulary of ~4,000 real and
 *   derived words plus ~30,000 invented rare words (acronyms, species, places), with recurring
 *   multi-word topics ("economía circular") so phrase queries have real work;
 * - published dates over six years, denser towards now; rows inserted in publication order (rowid =
 *   import order, which the RANK_WINDOW design relies on);
 * - about 7 % open now (deadline within the next 1–180 days), 1.5 % forthcoming, 2 % without a deadline
 *   (a third of them still open), the rest closed; EU calls close at 17:00 Brussels, some with two cut-offs;
 * - 0.5 % of BDNS rows about natural persons (personal_data = 1: stored, not indexed).
 */
import { closesAt, opensAt } from '../lib/funding/zoned-time.ts';
import { mulberry32 } from '../lib/mulberry32.ts';
import { WORDS as V } from './funding-vocabulary.ts';

export const GENERATOR_VERSION = 3; // 3: who may apply, award ceilings, recent changes (bench/funding-corpus-grants.ts)
/** The instant the corpus is laid out around (deadlines, open/closed shares). The bench server's clock starts here. */
export const CORPUS_NOW = Date.UTC(2026, 10, 2, 9, 0, 0); // 2026-11-02T09:00:00Z
export const SEED = 0x7f4a7c15;
const DAY_MS = 86_400_000;
const NOW_DAY = Math.floor(CORPUS_NOW / DAY_MS);
const SPAN_DAYS = 6 * 365;
const START_DAY = NOW_DAY - SPAN_DAYS;

/** Terms with a known, controlled role in the query mix (bench/funding.ts). */
export const RARE_TERM = 'posidonia';
const RARE_TERM_RATE = 1.2e-4; // per Spanish call: ~90 matches per million calls

// ---------------------------------------------------------------------------------------------
// PRNG

function hash32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

export const rowRng = (i: number, stream: number) => mulberry32(hash32(SEED ^ hash32(i * 4 + stream)));

// ---------------------------------------------------------------------------------------------
// Vocabulary

class Zipf {
  private readonly cdf: Float64Array;
  /** Zipf–Mandelbrot: weight of rank r is 1 / (r + q)^s; q > 1 flattens the head, as in real text. */
  constructor(
    readonly words: readonly string[],
    s: number,
    q = 1,
  ) {
    this.cdf = new Float64Array(words.length);
    let sum = 0;
    for (let r = 0; r < words.length; r++) this.cdf[r] = sum += 1 / Math.pow(r + q, s);
    for (let r = 0; r < words.length; r++) this.cdf[r]! /= sum;
  }
  draw(rng: () => number): string {
    const u = rng();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return this.words[lo]!;
  }
}

function shuffled<T>(items: T[], rng: () => number): T[] {
  const a = items.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

const unique = (words: string[]) => [...new Set(words)];

interface Vocabulary {
  esContent: Zipf;
  esStop: Zipf;
  esTopic: Zipf;
  places: Zipf;
  enContent: Zipf;
  enStop: Zipf;
  enTopic: Zipf;
  rare: string[];
  distinct: number;
}

export function buildVocabulary(): Vocabulary {
  const rng = mulberry32(SEED ^ 0x5bd1e995);
  const esDerived = V.esStems.flatMap((s) => V.esEndings.map((e) => s + e));
  const towns = V.townHeads.flatMap((h) => V.townTails.map((t) => h + t));
  // Real words first (most frequent), then the derived and place tail in a fixed shuffled order.
  const esContent = unique([
    ...V.esContent,
    ...shuffled(unique([...esDerived, ...towns.map((t) => t.toLowerCase())]), rng),
  ]);
  const enDerived = V.enStems.flatMap((s) => V.enEndings.map((e) => s + e));
  const enContent = unique([...V.enContent, ...shuffled(enDerived, rng)]);
  const places = unique([...V.esPlaces, ...shuffled(towns, rng)]);
  const rare = new Set<string>();
  while (rare.size < 30_000) {
    const n = 2 + Math.floor(rng() * 3);
    let w = '';
    for (let k = 0; k < n; k++) w += V.syllables[Math.floor(rng() * V.syllables.length)]!;
    if (w !== RARE_TERM) rare.add(rng() < 0.15 ? w.toUpperCase() : w);
  }
  const distinct = new Set(
    [...esContent, ...enContent, ...places.map((p) => p.toLowerCase()), ...V.esStop, ...V.enStop, ...rare].map((w) =>
      w.toLowerCase(),
    ),
  ).size;
  return {
    esContent: new Zipf(esContent, 1.0, 8),
    esStop: new Zipf(V.esStop, 1.1),
    esTopic: new Zipf(V.esTopics, 0.9, 3),
    places: new Zipf(places, 1.0, 3),
    enContent: new Zipf(enContent, 1.0, 8),
    enStop: new Zipf(V.enStop, 1.1),
    enTopic: new Zipf(V.enTopics, 0.9, 3),
    rare: [...rare],
    distinct,
  };
}

// ---------------------------------------------------------------------------------------------
// Rows

type Source = 'bdns' | 'boe' | 'eu';
type Kind = 'open' | 'forthcoming' | 'none' | 'closed';

interface Plan {
  source: Source;
  kind: Kind;
  personal: boolean;
  pubDay: number;
  openDay: number | null;
  cutoffDays: number[];
  time: string | null;
  sourceStatus: 'open' | 'forthcoming' | 'closed' | null;
}

/** Dates and status of row i: drawn from the row's stream 0, so pass 1 (ordering) and pass 2 agree. */
export function plan(i: number): Plan {
  const r = rowRng(i, 0);
  const u = r();
  const source: Source = u < 0.62 ? 'bdns' : u < 0.75 ? 'boe' : 'eu';
  const personal = source === 'bdns' && r() < 0.005;
  const k = r();
  const kind: Kind = k < 0.07 ? 'open' : k < 0.085 ? 'forthcoming' : k < 0.105 ? 'none' : 'closed';
  // Publication density grows towards now (more calls are published each year): offset ∝ sqrt(u).
  const recentDay = () => START_DAY + Math.floor(SPAN_DAYS * Math.sqrt(r()));
  const duration = () =>
    source === 'eu' ? 45 + Math.floor(-Math.log(1 - r()) * 60) : 10 + Math.floor(-Math.log(1 - r()) * 25);
  let pubDay: number;
  let openDay: number | null;
  let deadline: number | null;
  switch (kind) {
    case 'open': {
      const left = 1 + Math.floor(180 * r() * r());
      deadline = NOW_DAY + left;
      pubDay = Math.min(NOW_DAY, deadline - Math.max(duration(), left + 3));
      openDay = pubDay + (source === 'bdns' ? 1 : 0);
      if (openDay > NOW_DAY) openDay = NOW_DAY;
      break;
    }
    case 'forthcoming': {
      openDay = NOW_DAY + 1 + Math.floor(r() * 60);
      pubDay = NOW_DAY - Math.floor(r() * 30);
      deadline = openDay + 20 + Math.floor(r() * 70);
      break;
    }
    case 'none': {
      pubDay = recentDay();
      openDay = source === 'boe' ? null : pubDay + (source === 'bdns' ? 1 : 0);
      if (openDay !== null && openDay > NOW_DAY) openDay = NOW_DAY;
      deadline = null;
      break;
    }
    default: {
      pubDay = recentDay();
      deadline = pubDay + duration();
      if (deadline >= NOW_DAY) {
        deadline = NOW_DAY - 1 - Math.floor(r() * 20);
        pubDay = Math.min(pubDay, deadline - 5);
      }
      openDay = source === 'boe' ? null : pubDay + (source === 'bdns' ? 1 : 0);
    }
  }
  const cutoffDays: number[] = [];
  if (deadline !== null) {
    if (source === 'eu' && r() < 0.12 && deadline - pubDay > 20)
      cutoffDays.push(pubDay + Math.floor((deadline - pubDay) / 2));
    cutoffDays.push(deadline);
  }
  const time = deadline === null ? null : source === 'eu' ? '17:00' : source === 'bdns' && r() < 0.1 ? '14:00' : null;
  let sourceStatus: Plan['sourceStatus'] = null;
  if (kind === 'none') sourceStatus = pubDay > NOW_DAY - 365 && r() < 0.5 ? 'open' : 'closed';
  else if (source === 'eu')
    sourceStatus = kind === 'forthcoming' ? 'forthcoming' : kind === 'closed' && r() < 0.15 ? 'closed' : 'open';
  else if (source === 'bdns' && r() < 0.3) sourceStatus = kind === 'forthcoming' ? 'forthcoming' : 'open';
  return { source, kind, personal, pubDay, openDay, cutoffDays, time, sourceStatus };
}

const dayStrings = new Map<number, string>();
function day(d: number): string {
  let s = dayStrings.get(d);
  if (s === undefined) dayStrings.set(d, (s = new Date(d * DAY_MS).toISOString().slice(0, 10)));
  return s;
}

const instantCache = new Map<string, number>();
function cachedInstant(key: string, compute: () => number): number {
  let v = instantCache.get(key);
  if (v === undefined) instantCache.set(key, (v = compute()));
  return v;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const pick = <T>(items: readonly T[], rng: () => number): T => items[Math.floor(rng() * items.length)]!;

function words(
  n: number,
  rng: () => number,
  content: Zipf,
  stop: Zipf,
  topic: Zipf,
  rare: string[],
  spanish: boolean,
  stopRate = 0.36,
): string {
  const out: string[] = [];
  while (out.length < n) {
    const u = rng() * (1 - 0.36 + stopRate) + 0.36 - stopRate;
    if (u < 0.36) out.push(stop.draw(rng));
    else if (u < 0.4) out.push(topic.draw(rng));
    else if (u < 0.41) out.push(pick(rare, rng));
    else if (spanish && u < 0.43) out.push(pick(V.esPlaces, rng));
    else out.push(content.draw(rng));
  }
  return out.join(' ');
}

interface Row {
  id: string;
  source: Source;
  source_id: string;
  title: string;
  summary: string | null;
  body: string | null;
  funder: string | null;
  programme: string | null;
  country: string;
  region: string | null;
  url: string | null;
  published_on: string;
  opening_on: string | null;
  deadline: string | null;
  deadline_time: string | null;
  deadline_text: string | null;
  cutoffs: string;
  time_zone: string;
  opens_at: number | null;
  closes_at: number | null;
  budget: number | null;
  currency: string | null;
  language: string;
  source_status: string | null;
  bdns_id: string | null;
  personal_data: number;
  content_hash: string;
  imported_at: number;
  updated_at: number;
}

export function buildRow(i: number, p: Plan, voc: Vocabulary): Row {
  const r = rowRng(i, 1);
  const spanish = p.source !== 'eu';
  const zone = spanish ? 'Europe/Madrid' : 'Europe/Brussels';
  const year = day(p.pubDay).slice(0, 4);
  let title: string;
  let summary: string;
  let body: string | null = null;
  let sourceId: string;
  let programme: string | null;
  let funder: string;
  let country = 'ES';
  let region: string | null = null;
  let url: string;
  let bdnsId: string | null = null;
  if (spanish) {
    const topicPart =
      r() < 0.35
        ? voc.esTopic.draw(r)
        : words(2 + Math.floor(r() * 4), r, voc.esContent, voc.esStop, voc.esTopic, voc.rare, true, 0.1);
    title = `${pick(V.esTitleHeads, r)} ${pick(V.esTitleLinks, r)} ${topicPart}`;
    if (r() < 0.45) title += ` en ${voc.places.draw(r)}`;
    if (r() < 0.3) title += r() < 0.5 ? ` año ${year}` : ` ejercicio ${year}`;
    summary =
      capitalise(words(20 + Math.floor(r() * 26), r, voc.esContent, voc.esStop, voc.esTopic, voc.rare, true)) + '.';
    if (r() < RARE_TERM_RATE) summary += ` Conservación de praderas de ${RARE_TERM}.`;
    const bodyLen = p.source === 'boe' ? 30 + Math.floor(r() * 60) : r() < 0.4 ? 15 + Math.floor(r() * 45) : 0;
    if (bodyLen > 0) body = capitalise(words(bodyLen, r, voc.esContent, voc.esStop, voc.esTopic, voc.rare, true)) + '.';
    funder = r() < 0.55 ? pick(V.fundersEs, r) : `Ayuntamiento de ${voc.places.draw(r)}`;
    programme = r() < 0.4 ? pick(V.programmesEs, r) : null;
    region = pick(V.regionsEs, r);
    if (p.source === 'bdns') {
      sourceId = String(400_000 + i);
      bdnsId = sourceId;
      url = `https://www.infosubvenciones.es/bdnstrans/GE/es/convocatorias/${sourceId}`;
    } else {
      sourceId = `BOE-B-${year}-${String(10_000 + i)}`;
      bdnsId = r() < 0.7 ? String(400_000 + Math.floor(r() * (i + 1))) : null;
      url = `https://www.boe.es/diario_boe/txt.php?id=${sourceId}`;
    }
  } else {
    programme = pick(V.programmesEu, r);
    const code = V.programmeCodes[programme] ?? 'EU';
    sourceId = `${code}-${year}-${pick(['CL1', 'CL2', 'CL3', 'CL4', 'CL5', 'CL6', 'WIDERA', 'INFRA', 'EIC', 'MSCA'], r)}-${String(i).padStart(7, '0')}`;
    const topicPart =
      r() < 0.35
        ? voc.enTopic.draw(r)
        : words(2 + Math.floor(r() * 4), r, voc.enContent, voc.enStop, voc.enTopic, voc.rare, false, 0.1);
    title = `${pick(V.enTitleHeads, r)} ${voc.enContent.draw(r)} ${pick(V.enTitleLinks, r)} ${topicPart}`;
    summary =
      capitalise(words(25 + Math.floor(r() * 30), r, voc.enContent, voc.enStop, voc.enTopic, voc.rare, false)) + '.';
    body =
      capitalise(words(60 + Math.floor(r() * 100), r, voc.enContent, voc.enStop, voc.enTopic, voc.rare, false)) + '.';
    funder = pick(V.fundersEu, r);
    country = r() < 0.85 ? 'EU' : pick(V.otherCountries, r);
    url = `https://ec.europa.eu/info/funding-tenders/opportunities/portal/screen/opportunities/topic-details/${sourceId.toLowerCase()}`;
  }

  const cutoffs = p.cutoffDays.map((d) => ({ date: day(d), time: p.time }));
  const last = cutoffs[cutoffs.length - 1];
  const closes = last ? cachedInstant(`c|${zone}|${last.date}|${last.time}`, () => closesAt(last, zone)) : null;
  const openingOn = p.openDay === null ? null : day(p.openDay);
  const opens = openingOn === null ? null : cachedInstant(`o|${zone}|${openingOn}`, () => opensAt(openingOn, zone));
  const first = cutoffs[0];
  const budget =
    p.source === 'boe' && r() < 0.5
      ? null
      : Math.round(Math.exp((p.source === 'eu' ? 15.5 : 11.5) + 1.4 * gaussian(r)) / 100) * 100;
  const importedAt = p.pubDay * DAY_MS + 6 * 3_600_000 + Math.floor(r() * 3_600_000);
  return {
    id: `${p.source}:${sourceId}`,
    source: p.source,
    source_id: sourceId,
    title,
    summary,
    body,
    funder,
    programme,
    country,
    region,
    url,
    published_on: day(p.pubDay),
    opening_on: openingOn,
    deadline: first ? first.date : null,
    deadline_time: first ? first.time : null,
    deadline_text: cutoffs.length === 0 ? pick(V.deadlineTexts, r) : null,
    cutoffs: JSON.stringify(cutoffs),
    time_zone: zone,
    opens_at: opens,
    closes_at: closes,
    budget,
    currency: budget === null ? null : 'EUR',
    language: spanish ? 'es' : 'en',
    source_status: p.sourceStatus,
    bdns_id: bdnsId,
    personal_data: p.personal ? 1 : 0,
    content_hash: (
      hash32(i * 7 + 1).toString(16) +
      hash32(i * 7 + 2).toString(16) +
      hash32(i * 7 + 3).toString(16)
    ).padStart(24, '0'),
    imported_at: importedAt,
    updated_at: importedAt,
  };
}

function gaussian(r: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
}
