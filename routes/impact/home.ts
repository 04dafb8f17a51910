/**
 * GET / (the service index) and GET /search: what the service is, its endpoints and limits; and a
 * scan of the register's names (lib/impact/present-search.ts). Neither serves a figure.
 */
import { API_VERSION } from '../../lib/impact/envelope.ts';
import { searchEntries, type SearchType } from '../../lib/impact/present-search.ts';
import type { KeyedLimits } from '../../lib/limits.ts';
import { links } from './links.ts';
import { DEFAULT_SCENARIO, noQuery, searchQuery } from './schemas.ts';
import type { RouteDef } from './serve.ts';

/** Matches listed per response; `count` says how many there are in all. */
export const SEARCH_LIMIT = 50;

export function indexRoute(
  endpoints: () => Array<{ path: string; summary: string }>,
  limits: KeyedLimits,
): RouteDef<typeof noQuery, typeof noQuery> {
  return {
    path: '/',
    operationId: 'getIndex',
    summary: 'The service, its endpoints and limits',
    description:
      'Name, version, whether figures are published (for any scenario) and which scenarios have them, every endpoint, the daily allowance and how access works.',
    response: 'IndexResponse',
    query: noQuery,
    build(_input, deps, state) {
      return {
        scenario: DEFAULT_SCENARIO,
        data: {
          name: 'trio impact attribution API',
          version: API_VERSION,
          // Any scenario: a reader told "false" while S-RES serves figures could not find them (issue 14).
          figures_published: state.current.size > 0,
          scenarios: deps.register.scenarios().map((s) => ({
            code: s.code,
            default: s.is_default === 1,
            figures_published: state.current.has(s.code),
            run: state.current.get(s.code) ?? null,
          })),
          endpoints: endpoints(),
          rate_limit: {
            requests: limits.anonymous.perDay!,
            per: 'client address and UTC day',
            resets: '00:00 UTC',
            keyed_requests: limits.key.perDay!,
          },
          access:
            "Free and anonymous: no credential is needed. An optional key (ia_…) in Authorization: Bearer or X-API-Key is counted on its own allowance instead of the address's; a key that is unknown, revoked or expired is refused with 401.",
          language: 'en',
          register: state.register
            ? {
                kind: state.register,
                data_version: state.dataVersion,
                hash: state.registerHash,
                reconciliation:
                  'Every row of every published file is imported or skipped with a counted reason: `impact data build --dry-run` prints it, methodology v2 §4 explains each reason, /sources lists the files.',
              }
            : null,
          records: null,
        },
      };
    },
  };
}

const LINK: Record<SearchType, (key: string) => string> = {
  product: (k) => links.product(k).self,
  material: (k) => links.material(k).self,
  conflict: (k) => links.conflict(k).self,
  country: (k) => links.country(k).self,
  channel: (k) => links.channel(k).self,
};

export const searchRoute: RouteDef<typeof searchQuery, typeof noQuery> = {
  path: '/search',
  operationId: 'search',
  summary: 'Find a product, material, conflict, country or channel',
  description: `Case- and accent-insensitive match of q on every register entry's key (slug, ISO alpha-3 or alpha-2 code, channel code) and name. Ranked by how it matched (key, name, prefix, word, substring), then by type, then by name; at most ${SEARCH_LIMIT} are listed and count says how many matched.`,
  response: 'SearchResponse',
  query: searchQuery,
  build({ query }, deps) {
    const matches = searchEntries(deps.register.searchCorpus(), query.q);
    return {
      scenario: DEFAULT_SCENARIO,
      data: {
        q: query.q,
        count: matches.length,
        truncated: matches.length > SEARCH_LIMIT,
        matches: matches.slice(0, SEARCH_LIMIT).map((m) => ({
          type: m.type,
          key: m.key,
          name: m.name,
          match: m.match,
          matched: m.matched,
          links: { self: LINK[m.type](m.key) },
        })),
        records: null,
      },
    };
  },
};
