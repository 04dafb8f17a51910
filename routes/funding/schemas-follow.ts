/**
 * The funding API's schemas for what grant seekers follow (issue 27): who may apply and how much as
 * search parameters, a call's history, the Atom feed as the contract shows it, saved searches. Beside
 * ./schemas.ts (the search, calls, sources), which uses the parameters and the history entry.
 */
import * as v from 'valibot';
import { APPLICANT_LABELS, APPLICANT_TYPES } from '../../lib/funding/applicants.ts';
import { CHANGE_FIELDS } from '../../lib/funding/history.ts';
import { UNSTATED } from '../../lib/funding/search-filters.ts';
import { integerParam, stringParam } from '../../lib/validate.ts';

/** Every value applicant_type takes: the vocabulary (lib/funding/applicants.ts) and `unstated`. */
export const APPLICANT_FILTER_VALUES = [...APPLICANT_TYPES, UNSTATED] as const;
export const applicantList = (() => {
  const accepts = `one or more of ${APPLICANT_FILTER_VALUES.join(', ')}, separated by commas`;
  return v.pipe(
    stringParam({ max: 200, pattern: /^[a-z_]+(,[a-z_]+)*$/, accepts, description: '' }),
    v.check((s) => s.split(',').every((t) => (APPLICANT_FILTER_VALUES as readonly string[]).includes(t)), accepts),
    v.description(
      `Who may apply: calls open to ANY of these types (comma-separated). ${APPLICANT_TYPES.map((t) => `${t}: ${APPLICANT_LABELS[t].en}`).join('; ')}; ${UNSTATED}: calls whose source does not say (a BOE notice, a BDNS list entry), which are otherwise left out. Each source's values map to these as docs/funding-applicants.md says.`,
    ),
    v.examples(['sme,self_employed', 'non_profit', 'research,unstated']),
  );
})();
export const amountParam = (description: string, example: number) =>
  v.pipe(integerParam(0, 1_000_000_000, description), v.examples([example]));

export const HistoryEntry = v.object({
  at: v.pipe(
    v.string(),
    v.isoTimestamp(),
    v.description('When the import or sync that saw the change ran (UTC).'),
    v.examples(['2026-01-20T06:00:00.000Z']),
  ),
  field: v.pipe(
    v.picklist(CHANGE_FIELDS),
    v.description(
      "What changed: deadline (its cut-offs), opening (the opening day), status (the source's own), withdrawn (the source closed it before its deadline), budget, award_ceiling, title.",
    ),
    v.examples(['deadline']),
  ),
  before: v.pipe(
    v.unknown(),
    v.description(
      'The value before: for deadline the list of cut-offs [{date, time}], for budget and award_ceiling {amount, currency}, else the value.',
    ),
    v.examples([[{ date: '2026-01-15', time: null }]]),
  ),
  after: v.pipe(
    v.unknown(),
    v.description('The value after, in the same form.'),
    v.examples([[{ date: '2026-02-26', time: null }]]),
  ),
  description: v.pipe(
    v.string(),
    v.description('The change in words.'),
    v.examples(['deadline extended from 15 January to 26 February 2026']),
  ),
  seen_in: v.pipe(
    v.string(),
    v.description("The document whose import saw it: a sync's URL, or an imported file's name."),
    v.examples(['https://www.infosubvenciones.es/bdnstrans/api/convocatorias?numConv=916318&vpd=GE']),
  ),
});

export const CallHistory = v.object({
  data: v.array(HistoryEntry),
  meta: v.object({
    call_id: v.string(),
    first_seen: v.pipe(
      v.string(),
      v.isoTimestamp(),
      v.description('When the call entered the corpus (its first import).'),
      v.examples(['2025-12-02T06:00:00.000Z']),
    ),
  }),
});

/** The feed's body as the contract shows it: Atom XML (RFC 4287). */
export const AtomFeed = v.pipe(
  v.string(),
  v.description(
    'An Atom 1.0 feed (RFC 4287, application/atom+xml): feed id, title, updated, rel=self and rel=alternate links; one entry per call with id, title, links, published, updated, author (the funder), a category per applicant type, a text summary (deadline, status, who may apply, budget), fnd:deadline and fnd:status (namespace urn:x-trio:funding:1).',
  ),
  v.examples([
    '<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:fnd="urn:x-trio:funding:1"><id>…/funding/v1/search.atom?q=hidr%C3%B3geno</id>…</feed>',
  ]),
);

const SavedSearch = v.object({
  id: v.pipe(v.string(), v.description('Saved search id.'), v.examples(['ss_4fGhT9kQ2mPz8LwX1cVb'])),
  name: v.pipe(v.string(), v.examples(['Hydrogen, open, for SMEs'])),
  query: v.pipe(
    v.string(),
    v.description('The search, as a canonical /search query string.'),
    v.examples(['q=hidr%C3%B3geno&status=open&applicant_type=sme']),
  ),
  created_at: v.pipe(v.string(), v.isoTimestamp(), v.examples(['2026-11-22T10:00:00.000Z'])),
  search_url: v.pipe(
    v.string(),
    v.description('Its results (JSON).'),
    v.examples(['/funding/v1/search?q=hidr%C3%B3geno']),
  ),
  feed_url: v.pipe(
    v.string(),
    v.description('Its Atom feed.'),
    v.examples(['/funding/v1/search.atom?q=hidr%C3%B3geno']),
  ),
  page_url: v.pipe(
    v.string(),
    v.description('Its page in the explorer.'),
    v.examples(['/explore/funding?q=hidr%C3%B3geno']),
  ),
});

export const SavedSearchResponse = v.object({ data: SavedSearch });
export const SavedSearchList = v.object({
  data: v.array(SavedSearch),
  meta: v.object({
    limit: v.pipe(v.number(), v.integer(), v.description('The most an account may keep.'), v.examples([20])),
  }),
});
export const SavedSearchDetail = v.object({
  data: v.object({
    ...SavedSearch.entries,
    notified: v.pipe(
      v.object({
        total: v.pipe(v.number(), v.integer()),
        recent: v.array(
          v.object({
            call_id: v.pipe(v.string(), v.examples(['bdns:916318'])),
            at: v.pipe(v.string(), v.isoTimestamp()),
            event_id: v.pipe(
              v.string(),
              v.description('The funding.saved_search.matched webhook event that reported it.'),
              v.examples(['evt_0Abc…']),
            ),
          }),
        ),
      }),
      v.description('The new calls this search was notified of (once each): how many, and the latest 20.'),
    ),
  }),
});
