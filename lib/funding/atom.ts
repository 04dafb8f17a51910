/**
 * A funding search as an Atom feed (RFC 4287), for feed readers and for following a saved search
 * (routes/funding/feed.ts serves it). Each entry is a call: its title, its pages (the explorer's, the
 * API's and the source's), when it entered the corpus and last changed, its funder as author, who may
 * apply as categories, and a summary in words with the deadline, status, who may apply and the budget;
 * the deadline and status are also in the `fnd:` namespace for programs. Built with fast-xml-parser's
 * builder, which escapes text and attributes; characters XML 1.0 cannot carry are dropped first. Pure.
 */
import { XMLBuilder } from 'fast-xml-parser';
import { APPLICANT_LABELS } from './applicants.ts';
import { dayWords } from './history.ts';
import type { PublicCall } from './present.ts';

export const ATOM_TYPE = 'application/atom+xml';
/** The namespace of the funding elements an entry carries besides Atom's own. */
export const FUNDING_NS = 'urn:x-trio:funding:1';

export interface FeedCall extends PublicCall {
  /** When the call entered the corpus (UTC ms): the entry's `published` unless the source gave a day. */
  first_seen: number;
}

export interface FeedInput {
  /** The feed's own URL (absolute): its id and rel=self. */
  self: string;
  /** Where a person reads the same search (the explorer page). */
  page: string;
  /** Origin for the entries' links, e.g. https://example.org. */
  origin: string;
  title: string;
  /** When the corpus last changed (UTC ms): the feed's `updated` when no entry is newer. */
  corpusUpdated: number;
  calls: FeedCall[];
}

// XML 1.0 Char: tab, newline, return, and from U+0020 on, without surrogates halves and U+FFFE/F.
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const clean = (s: string) => s.replace(NOT_XML, '');

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', suppressEmptyNode: true });

/** When an entry last changed: its last recorded change, else when it entered the corpus. */
export const entryUpdated = (c: FeedCall) => Math.max(c.first_seen, c.changed_at ? Date.parse(c.changed_at) : 0);

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function money(amount: number | null, currency: string | null): string | null {
  if (amount === null) return null;
  try {
    return new Intl.NumberFormat('en-GB', {
      style: 'currency',
      currency: currency ?? 'EUR',
      maximumFractionDigits: 0,
    }).format(amount);
  } catch {
    return `${amount} ${currency ?? ''}`.trim();
  }
}

/** The entry's summary: deadline, status, who may apply, budget, funder; plain text. */
export function summaryOf(c: PublicCall): string {
  const deadline = c.deadline
    ? `Deadline: ${dayWords(c.deadline)}${c.deadline_time ? ` at ${c.deadline_time}` : ''} (${c.time_zone} time).`
    : c.deadline_text
      ? `Deadline: no date; the source says "${c.deadline_text}".`
      : 'Deadline: not stated.';
  const who = c.applicant_types.length
    ? `Who may apply: ${c.applicant_types.map((t) => APPLICANT_LABELS[t].en).join('; ')}.`
    : 'Who may apply: not stated by the source.';
  const budget = money(c.budget, c.currency);
  const ceiling = money(c.award_ceiling, c.currency);
  const amounts = [
    budget ? `Budget: ${budget}` : 'Budget: not stated',
    ceiling ? `up to ${ceiling} per grant` : null,
  ].filter(Boolean);
  return [deadline, `Status: ${c.status}.`, who, `${amounts.join(', ')}.`, c.funder ? `Funder: ${c.funder}.` : null]
    .filter(Boolean)
    .join(' ');
}

function entry(c: FeedCall, origin: string) {
  const api = `${origin}/funding/v1/calls/${encodeURIComponent(c.id)}`;
  const links: Array<Record<string, string>> = [
    {
      '@_rel': 'alternate',
      '@_type': 'text/html',
      '@_href': `${origin}/explore/funding/calls/${encodeURIComponent(c.id)}`,
    },
    { '@_rel': 'alternate', '@_type': 'application/json', '@_href': api },
  ];
  if (c.url && /^https?:\/\//i.test(c.url)) links.push({ '@_rel': 'related', '@_type': 'text/html', '@_href': c.url });
  return {
    id: api,
    title: { '@_type': 'text', '#text': clean(c.title) },
    link: links,
    published: iso(c.published_on ? Date.parse(`${c.published_on}T00:00:00Z`) : c.first_seen),
    updated: iso(entryUpdated(c)),
    author: { name: clean(c.funder ?? c.source) },
    category: c.applicant_types.map((t) => ({
      '@_term': t,
      '@_label': APPLICANT_LABELS[t].en,
      '@_scheme': `${origin}/funding/v1/openapi.json#applicant_types`,
    })),
    summary: { '@_type': 'text', '#text': clean(summaryOf(c)) },
    ...(c.deadline ? { 'fnd:deadline': c.deadline } : {}),
    'fnd:status': c.status,
  };
}

/** The feed's `updated`: its newest entry's, or when the corpus last changed. */
export const feedUpdated = (input: Pick<FeedInput, 'calls' | 'corpusUpdated'>) =>
  Math.max(input.corpusUpdated, ...input.calls.map(entryUpdated));

export function renderAtom(input: FeedInput): string {
  return builder.build({
    '?xml': { '@_version': '1.0', '@_encoding': 'utf-8' },
    feed: {
      '@_xmlns': 'http://www.w3.org/2005/Atom',
      '@_xmlns:fnd': FUNDING_NS,
      id: input.self,
      title: { '@_type': 'text', '#text': clean(input.title) },
      updated: iso(feedUpdated(input)),
      link: [
        { '@_rel': 'self', '@_type': ATOM_TYPE, '@_href': input.self },
        { '@_rel': 'alternate', '@_type': 'text/html', '@_href': input.page },
      ],
      author: { name: 'trio funding corpus' },
      generator: 'trio',
      entry: input.calls.map((c) => entry(c, input.origin)),
    },
  }) as string;
}
