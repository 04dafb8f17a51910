/**
 * The `data` of each impact endpoint (document "Payload objects"), wrapped in the envelope, as the
 * OpenAPI contract's components. Every data object carries `records` and `results` (null while
 * figures are withheld).
 */
import * as v from 'valibot';
import { SEARCH_TYPES, MATCH_KINDS } from '../../lib/impact/present-search.ts';
import { SCENARIO_CODES } from '../../lib/impact/scenario.ts';
import {
  Caveat,
  Citation,
  Contribution,
  envelope,
  ErrorBody,
  Figure,
  int,
  Licence,
  SourceUsed,
  Withheld,
  Metrics,
  NFigure,
  nint,
  nnum,
  nstr,
  num,
  ProductLinks,
  ProductMetrics,
  ProductRef,
  Reach,
  RunObject,
  str,
} from './contract.ts';
import { METHODS, METRICS, PRODUCT_SORTS, TIERS } from './schemas.ts';

const bool = v.boolean();
const NoRecords = v.null();
const NoResults = v.null();
const Category = v.strictObject({ code: str, name: str });
const ReachOrder = v.pipe(str, v.description('How reach is ordered, and in which unit.'));
const Reaches = v.nullable(v.strictObject({ reach: v.array(Reach), reach_order: ReachOrder }));
const UsedIn = v.strictObject({ product: ProductRef, line: int, role: str, qty: num, unit: str });

const ProductListItem = v.strictObject({
  slug: str,
  name: str,
  links: ProductLinks,
  tier: v.picklist(TIERS),
  category: Category,
  unit: str,
  unit_label: str,
  unit_mass_g: nnum,
  complete: bool,
  bom_lines: int,
  bom_confidence: nstr,
  is_arms: bool,
});

const Index = v.strictObject({
  name: str,
  version: str,
  figures_published: v.pipe(bool, v.description('Whether any scenario has a published run (scenarios says which).')),
  scenarios: v.pipe(
    v.array(v.strictObject({ code: v.picklist(SCENARIO_CODES), default: bool, figures_published: bool, run: nint })),
    v.description('Each scenario, whether it has figures, and the run it serves (null while withheld).'),
  ),
  endpoints: v.array(v.strictObject({ path: str, summary: str })),
  rate_limit: v.strictObject({ requests: int, per: str, resets: str, keyed_requests: int }),
  access: str,
  language: str,
  records: NoRecords,
  results: NoResults,
});

const ProductList = v.strictObject({
  sort: v.pipe(
    v.picklist(PRODUCT_SORTS),
    v.description('The order applied (toll falls back to name while figures are withheld).'),
  ),
  count: int,
  products: v.array(ProductListItem),
  records: NoRecords,
  results: v.nullable(
    v.strictObject({
      metric: str,
      route: str,
      figures: v.record(str, v.strictObject({ per_unit: NFigure, per_kg: NFigure })),
    }),
  ),
});

const BomItem = v.strictObject({
  line: int,
  role: str,
  component: v.strictObject({ type: v.picklist(['material', 'product', 'unmodelled']), key: nstr, name: nstr }),
  qty: num,
  unit: str,
  loss_factor: num,
  source: v.strictObject({ text: str, url: str }),
  confidence: str,
  note: nstr,
});
const TraceNode = v.strictObject({
  depth: int,
  parent: str,
  line: int,
  role: str,
  type: str,
  key: nstr,
  name: nstr,
  qty: num,
  unit: str,
  loss_factor: num,
});
const Industry = v.strictObject({
  sector: str,
  name: str,
  kind: str,
  role: v.picklist(['last_stage', 'raw_material']),
  region: nstr,
  region_name: nstr,
  materials: v.array(str),
});

const Product = v.strictObject({
  slug: str,
  name: str,
  links: ProductLinks,
  tier: v.picklist(TIERS),
  category: Category,
  unit: str,
  unit_label: str,
  unit_mass_g: nnum,
  archetype: str,
  status: str,
  complete: bool,
  bom_confidence: nstr,
  is_arms: bool,
  bill_of_materials: v.array(BomItem),
  raw_inputs: v.array(v.strictObject({ type: str, key: nstr, name: str, qty: num, unit: str })),
  trace: v.pipe(
    v.nullable(v.strictObject({ depth: int, nodes: v.array(TraceNode) })),
    v.description(
      'The bill of materials followed through every semi-finished product, depth first; null when it does not resolve.',
    ),
  ),
  industries: v.array(Industry),
  used_in: v.array(UsedIn),
  records: NoRecords,
  results: v.nullable(
    v.strictObject({
      scenarios: v.array(
        v.strictObject({ code: v.picklist(SCENARIO_CODES), name: str, run: nint, deaths_per_unit: NFigure }),
      ),
      nearest_by_kg: v.array(v.strictObject({ product: ProductRef, deaths_per_kg: NFigure })),
    }),
  ),
});

const Contributions = v.strictObject({
  slug: str,
  name: str,
  links: ProductLinks,
  metric: v.picklist(METRICS),
  method: v.picklist(METHODS),
  records: NoRecords,
  results: v.nullable(v.strictObject({ headline: NFigure, breakdowns: v.record(str, v.array(Contribution)) })),
});

const Explain = v.strictObject({
  slug: str,
  name: str,
  links: ProductLinks,
  metric: v.picklist(METRICS),
  records: NoRecords,
  results: v.nullable(
    v.strictObject({
      routes: v.record(
        str,
        v.nullable(v.strictObject({ headline: NFigure, steps: v.record(str, v.array(Contribution)) })),
      ),
      quantities: v.array(v.strictObject({ material: v.strictObject({ key: nstr, name: nstr }), qty: num, unit: str })),
      check: str,
    }),
  ),
});

const Bases = v.strictObject({ per_unit: NFigure, per_kg: NFigure, per_1000_eur: NFigure });
const Ratio = v.strictObject({
  central: nnum,
  low: nnum,
  median: nnum,
  high: nnum,
  verdict: v.picklist(['a_larger', 'b_larger', 'not_distinguishable']),
  p_a_greater: v.pipe(num, v.description('Share of paired draws in which a exceeds b on this basis.')),
  p_a_equal: v.pipe(
    num,
    v.description(
      'Share of paired draws in which a and b are equal on this basis (a tie: both 0, or the same product).',
    ),
  ),
});
const Compare = v.strictObject({
  a: ProductRef,
  b: ProductRef,
  metric: v.picklist(METRICS),
  records: NoRecords,
  results: v.nullable(
    v.strictObject({
      a: Bases,
      b: Bases,
      pair: v.nullable(
        v.strictObject({
          ratio_of: v.pipe(str, v.description("'a / b': every ratio is a's figure over b's, draw by draw.")),
          by: v.pipe(
            v.record(str, Ratio),
            v.description(
              'per_unit, per_kg (when both products have a unit mass) and per_1000_eur. null quantiles are unbounded (b is 0 in those draws).',
            ),
          ),
          p_a_greater: v.pipe(nnum, v.description("Share of paired draws in which a's figure per unit exceeds b's.")),
          p_a_equal: v.pipe(
            nnum,
            v.description(
              'Share of paired draws in which the two are equal per unit (a tie, not counted in p_a_greater).',
            ),
          ),
          samples: v.pipe(int, v.description('Paired draws.')),
        }),
      ),
    }),
  ),
});

const SpendRow = v.strictObject({
  code: str,
  reference: bool,
  deaths: NFigure,
  injuries: NFigure,
  share_of_spend: nnum,
  made_in_consumer: nnum,
  group: v.nullable(
    v.strictObject({
      level: v.picklist(['division', 'group']),
      division: str,
      consumption: v.picklist(['household', 'npish', 'government']),
    }),
  ),
});
const Spend = v.strictObject({
  amount_eur: num,
  consumer: str,
  categories: v.array(v.strictObject({ code: str, name: str, divisions: str, note: str })),
  records: NoRecords,
  results: v.nullable(
    v.strictObject({
      rows: v.array(SpendRow),
      left_out: v.nullable(v.strictObject({ industries: v.array(str), share_of_spend: nnum, why: str })),
    }),
  ),
});

const Material = v.strictObject({
  slug: str,
  name: str,
  category: str,
  unit: str,
  content_basis: nstr,
  flags: v.record(str, v.unknown()),
  criticality: v.strictObject({ level: str, source: str }),
  conflict_mineral: v.strictObject({ flag: bool, source: str }),
  note: str,
  used_in: v.array(UsedIn),
  records: v.nullable(
    v.strictObject({
      production: v.nullable(
        v.strictObject({
          year: nint,
          unit: str,
          world_total: nnum,
          countries: v.array(v.strictObject({ iso3: str, name: str, qty: num, quality: str })),
        }),
      ),
    }),
  ),
  results: v.nullable(
    v.strictObject({
      reach: v.array(Reach),
      reach_order: ReachOrder,
      deaths_per_tonne: v.pipe(v.null(), v.description("Always null in v1: a material's figures are per kg (per_kg).")),
      per_kg: v.strictObject({ deaths: NFigure, injuries: NFigure }),
    }),
  ),
});

const Conflict = v.strictObject({
  slug: str,
  name: str,
  ucdp_conflict_id: v.pipe(
    nint,
    v.description('UCDP conflict id; null until verified against UCDP data (ucdp_id_note says why).'),
  ),
  ucdp_id_note: nstr,
  type: str,
  region: str,
  years: v.strictObject({ from: nint, to: nint }),
  attribution: v.strictObject({
    scenario: str,
    periods: v.array(
      v.strictObject({
        label: str,
        year_from: int,
        year_to: int,
        rationale: str,
        shares: v.array(v.strictObject({ sector: str, name: str, share: nnum, confidence: nstr })),
      }),
    ),
  }),
  records: v.nullable(
    v.strictObject({
      ledger: v.strictObject({
        events: int,
        deaths_best: int,
        precise_location_pct: nnum,
        year_min: nint,
        year_max: nint,
        countries: int,
      }),
    }),
  ),
  results: Reaches,
});

const Country = v.strictObject({
  iso3: str,
  name: str,
  region: str,
  income_group: nstr,
  records: v.nullable(
    v.strictObject({
      harm_counted: v.strictObject({
        channels: v.array(
          v.strictObject({ channel: str, deaths: int, year_min: nint, year_max: nint, latest_year_deaths: nint }),
        ),
        deaths: int,
      }),
    }),
  ),
  results: Reaches,
});

const Channel = v.strictObject({
  code: str,
  name: str,
  description: str,
  requires_paf: bool,
  exclusion_rule: str,
  attribution: v.nullable(v.record(str, v.unknown())),
  records: v.nullable(v.strictObject({ events: int, deaths: int, countries: int, year_min: int, year_max: int })),
  results: Reaches,
});

const Scenarios = v.strictObject({
  scenarios: v.array(
    v.strictObject({
      code: v.picklist(SCENARIO_CODES),
      name: str,
      description: str,
      default: bool,
      params: v.nullable(v.record(str, v.unknown())),
      run: nint,
    }),
  ),
  records: NoRecords,
  results: NoResults,
});
const Runs = v.strictObject({
  runs: v.pipe(
    v.array(RunObject),
    v.description('Every published run, newest first; empty only while no scenario has one.'),
  ),
  scenarios: v.pipe(
    v.array(v.strictObject({ code: v.picklist(SCENARIO_CODES), current_run: nint, runs: v.array(int) })),
    v.description(
      'Per scenario: the run it serves now (null while withheld) and the ids of its published runs, newest first.',
    ),
  ),
  records: NoRecords,
  results: NoResults,
});
const Run = v.strictObject({
  run: RunObject,
  gates: v.array(
    v.strictObject({
      gate: str,
      passed: bool,
      offenders: int,
      explained: int,
      detail: str,
      engine: str,
      checked_at: nstr,
    }),
  ),
  records: NoRecords,
  results: NoResults,
});
const Methodology = v.strictObject({
  versions: v.array(
    v.strictObject({
      code: str,
      version: str,
      published_on: nstr,
      summary: str,
      frozen: bool,
      document_sha256: str,
      links: v.record(str, str),
    }),
  ),
  records: NoRecords,
  results: NoResults,
});
const Sources = v.strictObject({
  sources: v.array(
    v.strictObject({
      code: str,
      name: str,
      publisher: str,
      homepage: str,
      enabled: bool,
      verified_on: nstr,
      basis: nstr,
      licence: v.strictObject({ name: nstr, url: nstr, spdx: nstr }),
      credit: nstr,
      usage_restriction: nstr,
      note: nstr,
      releases: v.array(v.strictObject({ release: str, published_on: nstr, accessed_on: nstr, url: nstr, note: nstr })),
    }),
  ),
  records: NoRecords,
  results: NoResults,
});
const Search = v.strictObject({
  q: str,
  count: v.pipe(int, v.description('Matches in all (matches lists at most 50).')),
  truncated: bool,
  matches: v.array(
    v.strictObject({
      type: v.picklist(SEARCH_TYPES),
      key: str,
      name: str,
      match: v.picklist(MATCH_KINDS),
      matched: str,
      links: v.strictObject({ self: str }),
    }),
  ),
  records: NoRecords,
  results: NoResults,
});

const ListOf = <E extends v.GenericSchema>(key: string, item: E, results: v.GenericSchema) =>
  v.strictObject({
    count: v.pipe(int, v.description('Entries in the list (all of them: the lists are short).')),
    [key]: v.array(item),
    records: NoRecords,
    results,
  });
const MaterialList = ListOf(
  'materials',
  v.strictObject({
    slug: str,
    name: str,
    category: str,
    unit: str,
    criticality: str,
    conflict_mineral: bool,
    links: v.strictObject({ self: str }),
  }),
  v.nullable(
    v.strictObject({
      figures: v.pipe(
        v.record(str, v.strictObject({ deaths_per_kg: NFigure, injuries_per_kg: NFigure })),
        v.description('By material slug.'),
      ),
    }),
  ),
);
const PerYear = v.nullable(
  v.strictObject({
    metric: v.picklist(['deaths']),
    figures: v.pipe(
      v.record(str, NFigure),
      v.description('Deaths per year attributed through each entry (its reach total), by key.'),
    ),
  }),
);
const ConflictList = ListOf(
  'conflicts',
  v.strictObject({
    slug: str,
    name: str,
    ucdp_conflict_id: nint,
    type: str,
    region: str,
    years: v.strictObject({ from: nint, to: nint }),
    links: v.strictObject({ self: str }),
  }),
  PerYear,
);
const CountryList = ListOf(
  'countries',
  v.strictObject({
    iso3: str,
    name: v.pipe(str, v.description('ISO 3166-1 short name.')),
    region: str,
    income_group: nstr,
    data: v.strictObject({ harm_counted: bool, production: bool }),
    deaths_counted: v.pipe(int, v.description('Deaths the register counts in the country, every channel and year.')),
    links: v.strictObject({ self: str }),
  }),
  PerYear,
);
const CategoryList = ListOf(
  'categories',
  v.strictObject({ code: str, name: str, products: int, links: v.strictObject({ products: str }) }),
  NoResults,
);

export const COMPONENTS = {
  Figure,
  Contribution,
  Reach,
  ProductRef,
  Metrics,
  ProductMetrics,
  Run: RunObject,
  Source: SourceUsed,
  Licence,
  Caveat,
  Citation,
  Withheld,
  IndexResponse: envelope(Index, Metrics, 'The service, its endpoints and limits.'),
  ProductListResponse: envelope(
    ProductList,
    Metrics,
    'The product catalogue, with deaths per unit and per kg when published.',
  ),
  ProductResponse: envelope(Product, ProductMetrics, 'One product: register facts, and its figures when published.'),
  ContributionsResponse: envelope(Contributions, Metrics, "Breakdowns of a product's headline."),
  ExplainResponse: envelope(Explain, Metrics, "How a product's headline is built, stage by stage."),
  CompareResponse: envelope(Compare, Metrics, 'Two products compared on paired draws.'),
  SpendResponse: envelope(Spend, Metrics, 'Harm attributed to consumer spending by COICOP 2018 category.'),
  MaterialResponse: envelope(Material, Metrics, 'One material.'),
  ConflictResponse: envelope(Conflict, Metrics, 'One conflict.'),
  CountryResponse: envelope(Country, Metrics, 'One country.'),
  ChannelResponse: envelope(Channel, Metrics, 'One harm channel.'),
  ScenariosResponse: envelope(Scenarios, Metrics, 'The attribution scenarios.'),
  RunsResponse: envelope(Runs, Metrics, 'Published runs.'),
  RunResponse: envelope(Run, Metrics, 'One published run and its gates.'),
  MethodologyResponse: envelope(Methodology, Metrics, 'Methodology versions.'),
  SourcesResponse: envelope(Sources, Metrics, 'The source register.'),
  SearchResponse: envelope(Search, Metrics, 'Register entries matching q.'),
  MaterialListResponse: envelope(MaterialList, Metrics, 'Every material.'),
  ConflictListResponse: envelope(ConflictList, Metrics, 'Every conflict.'),
  CountryListResponse: envelope(CountryList, Metrics, 'The countries the register has data for.'),
  CategoryListResponse: envelope(CategoryList, Metrics, 'Every product category.'),
  Error: ErrorBody,
};
