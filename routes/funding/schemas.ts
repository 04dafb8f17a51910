/**
 * The funding API's schemas: query parameters (validated by lib/validate.ts) and response bodies (for
 * the OpenAPI contract and the contract tests). Bounds are SPEC's "Funding corpus" section.
 */
import * as v from 'valibot';
import { enumParam, integerParam, stringParam } from '../../lib/validate.ts';
import { NOTICE_KINDS } from '../../lib/funding/notice-kind.ts';
import { APPLICANT_LABELS, APPLICANT_TYPES } from '../../lib/funding/applicants.ts';
import { amountParam, applicantList, HistoryEntry } from './schemas-follow.ts';
import { FUNDING_ERROR_CODES } from '../../lib/funding/errors.ts';

export const SORTS = ['relevance', 'deadline', '-deadline', 'published'] as const;
export const STATUSES = ['open', 'forthcoming', 'closed'] as const;
export const CALL_SOURCES = ['eu', 'bdns', 'boe'] as const;
export const MAX_PAGE = 500;
export const MAX_PER_PAGE = 100;

/** A day parameter: `format: date` and an example in the contract. */
const isoDay = (example: string, description: string) => {
  const accepts = `a date YYYY-MM-DD, e.g. ${example}`;
  return v.pipe(
    stringParam({ max: 10, min: 10, pattern: /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, accepts, description }),
    v.isoDate(accepts),
    v.examples([example]),
  );
};

export const filterEntries = {
  q: v.optional(
    stringParam({
      max: 200,
      accepts: 'text of 1 to 200 characters',
      description:
        'Words that must all appear (plurals and other forms too: Spanish and English stemming; funding terms in the other language too: hidrógeno finds hydrogen). "a phrase" in double quotes, a prefix inside one ("energ* renovable"); or between terms; -word or not word to exclude; a trailing * for a prefix (subvenc*). Operators in any case. An identifier (HORIZON-MISS-2026-02-CANCER-05, eu:…, a BDNS number) finds its call. Searches identifiers, title, summary, funder, programme, region and the call text; a match in an identifier or the title ranks first. Accent- and case-insensitive.',
    }),
  ),
  country: v.optional(
    stringParam({
      max: 2,
      min: 2,
      pattern: /^[A-Za-z]{2}$/,
      accepts: 'an ISO 3166-1 alpha-2 code such as ES, or EU for the European Commission',
      description: 'ISO 3166-1 alpha-2 country of the funder (EU for the European Commission); either case.',
    }),
  ),
  region: v.optional(
    stringParam({
      max: 100,
      accepts: 'text of 1 to 100 characters, e.g. Madrid or ES511',
      description:
        "Words of the call's region (e.g. Madrid, Andalucía, ES511): calls whose region holds them all. Accent- and case-insensitive, stemmed like q.",
    }),
  ),
  status: v.optional(
    enumParam(STATUSES, "Status as it reads now, computed from the deadline in the source's time zone."),
  ),
  source: v.optional(enumParam(CALL_SOURCES, 'Only calls from this source.')),
  deadline_from: v.optional(
    isoDay(
      '2026-12-01',
      "Only calls whose served deadline (the next cut-off) is on or after this day (YYYY-MM-DD, in the call's time zone). Calls without a deadline are left out.",
    ),
  ),
  deadline_to: v.optional(
    isoDay(
      '2026-12-31',
      "Only calls whose served deadline (the next cut-off) is on or before this day (YYYY-MM-DD, in the call's time zone). Calls without a deadline are left out.",
    ),
  ),
  applicant_type: v.optional(applicantList),
  budget_min: v.optional(
    amountParam(
      'Only calls whose total budget is at least this many euros (whole euros; every source states euros). Calls whose source states no budget are kept unless budget_unstated=exclude: an unknown amount is never read as 0.',
      100_000,
    ),
  ),
  budget_max: v.optional(
    amountParam(
      'Only calls whose total budget is at most this many euros. Calls whose source states no budget are kept unless budget_unstated=exclude.',
      5_000_000,
    ),
  ),
  budget_unstated: v.optional(
    v.pipe(
      enumParam(
        ['include', 'exclude'] as const,
        'What budget_min and budget_max do with calls whose source states no budget (BOE notices, BDNS list entries): include (default) keeps them, flagged by budget null; exclude leaves them out. exclude alone keeps only calls that state a budget.',
      ),
      v.examples(['exclude']),
    ),
  ),
  changed_since: v.optional(
    isoDay(
      '2026-11-01',
      "Only calls in which an import or sync saw a meaningful change (deadline, opening day, status, withdrawal, budget, award ceiling, title) on or after this day (UTC). Each call's changes are at GET /calls/{id}/history.",
    ),
  ),
  sort: v.optional(
    enumParam(
      SORTS,
      'relevance (default with q): calls whose identifier or title holds the query first, then the others, newest first within each; without q it is published order. deadline: the deadline each call serves now (of several cut-offs, the next), soonest first, calls without one last. -deadline: latest first, calls without one last. published: newest first (default without q). Every value works with or without q.',
    ),
  ),
};

export const searchQuery = v.object({
  ...filterEntries,
  per_page: v.optional(integerParam(1, MAX_PER_PAGE, 'Results per page, 1 to 100; default 20.')),
  page: v.optional(integerParam(1, MAX_PAGE, 'Page number, 1 to 500; default 1. Not with cursor.')),
  cursor: v.optional(
    stringParam({
      max: 400,
      pattern: /^[A-Za-z0-9_-]+$/,
      accepts: 'a next_cursor value from an earlier response',
      description:
        'Opaque cursor from meta.next_cursor; continues the same search after the last call shown (keyset: calls added or withdrawn meanwhile neither repeat nor skip one).',
    }),
  ),
});

/** /search.atom: the search's filters and per_page (a feed is the first page; no cursor or page). */
export const feedQuery = v.object({
  ...filterEntries,
  per_page: v.optional(integerParam(1, MAX_PER_PAGE, 'Entries, 1 to 100; default 20.')),
});

export const exportQuery = v.object({
  ...filterEntries,
  format: v.optional(
    enumParam(
      ['ndjson', 'csv'] as const,
      'ndjson (default): one call per line; csv: RFC 4180 with a header row. Calls come in the order sort gives, as in /search.',
    ),
  ),
});

export const callParams = v.object({
  id: stringParam({
    max: 200,
    pattern: /^(eu|bdns|boe):[^\s]+$/,
    accepts: "a call id such as 'eu:HORIZON-CL5-2021-D2-01-11' or 'bdns:712345'",
    description: "Call id: source, a colon, and the source's own identifier.",
  }),
});

const nullableString = v.nullable(v.string());
const date = v.pipe(v.string(), v.isoDate());

const DeadlineSource = v.pipe(
  v.nullable(
    v.variant('kind', [
      v.object({
        kind: v.pipe(v.literal('stated'), v.description('The source published the closing day (deadline, cutoffs).')),
      }),
      v.object({
        kind: v.pipe(
          v.literal('computed'),
          v.description('Computed from a period the source states relative to a publication.'),
        ),
        rule: v.pipe(
          v.string(),
          v.description(
            'The period and how it was counted, e.g. "30 días naturales desde el día siguiente a la publicación (Ley 39/2015, art. 30)".',
          ),
        ),
        from: v.pipe(date, v.description('The publication day the period counts from (Europe/Madrid).')),
        publication: v.pipe(
          v.string(),
          v.description(
            'The publication counted from: a BOE identifier, or a regional bulletin\'s as BDNS lists it ("DOGC. D.O. DE LA GENERALITAT DE CATALUNYA (BDNS anuncio 207239)").',
          ),
        ),
        text: v.pipe(v.string(), v.description("The source's words the period was read from.")),
        calendar: v.pipe(
          v.array(v.string()),
          v.description('The national holiday calendars used (días hábiles), with their BOE source.'),
        ),
      }),
      v.object({
        kind: v.pipe(
          v.literal('uncomputed'),
          v.description('The source states the deadline only in words this service does not turn into a day.'),
        ),
        reason: v.pipe(
          v.string(),
          v.description('Why not, e.g. it counts from a regional bulletin this service does not import.'),
        ),
        text: v.pipe(v.string(), v.description("The source's words.")),
      }),
    ]),
  ),
  v.description(
    'How deadline was obtained: stated by the source, computed from a relative period (Ley 39/2015 art. 30, Europe/Madrid, días hábiles without Saturdays, Sundays and national holidays), or uncomputed with the reason. null when the source says nothing about a deadline.',
  ),
);

const cutoff = v.object({ date, time: v.nullable(v.pipe(v.string(), v.regex(/^\d{2}:\d{2}$/))) });

export const Call = v.pipe(
  v.object({
    id: v.string(),
    source: v.picklist(CALL_SOURCES),
    source_id: v.string(),
    title: v.string(),
    summary: nullableString,
    funder: nullableString,
    programme: nullableString,
    country: v.pipe(v.string(), v.regex(/^[A-Z]{2}$/)),
    region: nullableString,
    url: nullableString,
    published_on: v.nullable(date),
    opening_on: v.nullable(date),
    deadline: v.pipe(
      v.nullable(date),
      v.description(
        'Closing day as the source published it, in time_zone (of several cut-offs, the next one), or as computed from a relative period the source states (see deadline_source).',
      ),
    ),
    deadline_time: v.pipe(
      v.nullable(v.pipe(v.string(), v.regex(/^\d{2}:\d{2}$/))),
      v.description('Time of day in time_zone, only when the source stated one; never a made-up midnight.'),
    ),
    deadline_text: v.pipe(
      nullableString,
      v.description("The source's own words about the deadline when it gives no date."),
    ),
    deadline_source: DeadlineSource,
    cutoffs: v.array(cutoff),
    time_zone: v.picklist(['Europe/Brussels', 'Europe/Madrid']),
    budget: v.pipe(
      v.nullable(v.number()),
      v.description(
        "The call's total budget in currency, as the source states it; null when it states none (never 0 for unknown).",
      ),
      v.examples([600000, null]),
    ),
    award_ceiling: v.pipe(
      v.nullable(v.number()),
      v.description(
        'The most one grant may receive, in currency, when the source states it (EU topics: the largest maxContribution of their actions); null otherwise.',
      ),
      v.examples([3000000, null]),
    ),
    currency: v.pipe(nullableString, v.description('ISO 4217 code of budget and award_ceiling.'), v.examples(['EUR'])),
    applicant_types: v.pipe(
      v.array(v.picklist(APPLICANT_TYPES)),
      v.description(
        'Who may apply, in one vocabulary for every source (docs/funding-applicants.md): ' +
          APPLICANT_TYPES.map((t) => `${t} (${APPLICANT_LABELS[t].en})`).join(', ') +
          '. Empty when the source does not say.',
      ),
      v.examples([['sme', 'self_employed', 'large_company'], []]),
    ),
    applicants_stated: v.pipe(
      v.array(v.string()),
      v.description(
        "Who may apply in the source's own words (BDNS tiposBeneficiarios, the EU type of action), which applicant_types is mapped from.",
      ),
      v.examples([['PYME Y PERSONAS FÍSICAS QUE DESARROLLAN ACTIVIDAD ECONÓMICA', 'GRAN EMPRESA']]),
    ),
    changed_at: v.pipe(
      v.nullable(v.pipe(v.string(), v.isoTimestamp())),
      v.description(
        'When an import or sync last saw a meaningful change in this call (ISO 8601, UTC); null if none since it was first seen. The changes: GET /calls/{id}/history.',
      ),
      v.examples(['2026-11-20T06:00:00.000Z', null]),
    ),
    language: v.string(),
    source_status: v.pipe(
      v.nullable(v.picklist(STATUSES)),
      v.description('Status as the source states it (may be stale).'),
    ),
    status: v.pipe(v.picklist(STATUSES), v.description('Status as it reads now.')),
    bdns_id: nullableString,
  }),
);

const Project = v.object({
  id: v.string(),
  acronym: nullableString,
  title: v.string(),
  status: nullableString,
  start_date: v.nullable(date),
  end_date: v.nullable(date),
  total_cost: v.nullable(v.number()),
  ec_contribution: v.nullable(v.number()),
  coordinator: nullableString,
  coordinator_country: nullableString,
  url: nullableString,
});

const Notice = v.object({
  id: v.pipe(v.string(), v.description('BOE identifier.')),
  kind: v.pipe(
    v.picklist(NOTICE_KINDS),
    v.description(
      'call: the announcement of this call (an extract); bases: its bases reguladoras; correction: a corrección de errores; modification: a change (deadline, budget…); award: a resolution of award; other.',
    ),
  ),
  title: v.string(),
  url: nullableString,
  published_on: date,
  department: nullableString,
});

export const CallDetail = v.object({
  data: v.object({
    ...Call.entries,
    projects: v.pipe(v.array(Project), v.description('CORDIS: projects funded under this call (EU topics).')),
    notices: v.pipe(
      v.array(Notice),
      v.description(
        'BOE notices about this call: its announcement, bases, corrections, modifications and award resolutions, joined by BDNS id, by a BOE id they name, or by the disposition they refer to. These are never served as calls themselves.',
      ),
    ),
    history: v.pipe(
      v.array(HistoryEntry),
      v.description('What imports and syncs saw change in it, oldest first (as GET /calls/{id}/history).'),
    ),
    attribution: v.array(v.object({ source: v.string(), licence: v.string(), credit: v.string() })),
  }),
});

export const SearchResponse = v.object({
  data: v.array(Call),
  meta: v.object({
    total: v.pipe(
      v.number(),
      v.integer(),
      v.description(
        'Calls matching q in full (every word, or its vocabulary forms) and every filter, counted up to 10,000; partial matches (meta.not_matching) are not counted. With q and a filter, counted among the 10,000 newest text matches.',
      ),
    ),
    total_exact: v.pipe(
      v.boolean(),
      v.description(
        'false when more than 10,000 calls match, or when q with a filter has more than 10,000 text matches to look through: total is then a floor.',
      ),
    ),
    page: v.pipe(v.number(), v.integer()),
    per_page: v.pipe(v.number(), v.integer()),
    next_cursor: v.nullable(v.string()),
    not_matching: v.pipe(
      v.record(v.string(), v.array(v.string())),
      v.description(
        'For each call of this page that matches q in part (sort=relevance: after the calls holding every word, those holding most of them), the words of q it does not hold, as typed, e.g. {"bdns:890057": ["pymes"]}. Empty when every call on the page matches in full.',
      ),
    ),
  }),
});

export const Source = v.object({
  code: v.string(),
  name: v.string(),
  publisher: v.string(),
  homepage: v.string(),
  licence: v.string(),
  licence_url: v.string(),
  attribution: v.string(),
  time_zone: v.string(),
  records: v.pipe(
    v.number(),
    v.integer(),
    v.description('Records of this source served: calls, or for CORDIS, projects (withheld records not counted).'),
  ),
  newest_published_on: v.pipe(
    v.nullable(v.pipe(v.string(), v.isoDate())),
    v.description(
      "The day the newest served record of this source was published (YYYY-MM-DD in the source's time zone): how recent the records are, whenever they were loaded. null when no record states a publication day (CORDIS projects carry none).",
    ),
  ),
  last_sync_at: v.pipe(
    v.nullable(v.string()),
    v.description(
      'When `funding sync` last brought this source up to date from its publisher without a failure (ISO 8601); null if never.',
    ),
  ),
  last_import_at: v.pipe(
    v.nullable(v.string()),
    v.description(
      'When a file of this source was last loaded (`funding import`, the demo; ISO 8601); null if never. Loading a file says nothing of how current it is: see newest_published_on.',
    ),
  ),
  data_age_seconds: v.pipe(
    v.nullable(v.pipe(v.number(), v.integer())),
    v.description(
      'Seconds since this source was last synced from its publisher (last_sync_at). null if it never was: its records are as recent as newest_published_on, whenever a file was loaded.',
    ),
  ),
});

export const SourcesResponse = v.object({ data: v.array(Source) });

export const ErrorBody = v.object({
  error: v.pipe(v.picklist(FUNDING_ERROR_CODES), v.description('Stable code: branch on this.')),
  message: v.pipe(v.string(), v.description('Human text; may change.')),
});
