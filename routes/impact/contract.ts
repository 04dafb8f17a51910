/**
 * Response schemas shared by every impact endpoint, for the OpenAPI contract and the contract tests:
 * Figure, Contribution, Reach, ProductRef, the metrics objects, the run object and the envelope. The
 * objects the document leaves open are fixed here (docs/decisions.md "Impact attribution"). Strict
 * objects: a field the contract does not list fails the contract tests, so nothing is served undocumented.
 */
import * as v from 'valibot';
import { SCENARIO_CODES } from '../../lib/impact/scenario.ts';
import { IMPACT_ERROR_CODES } from '../../lib/impact/errors.ts';
import { METRICS } from './schemas.ts';

export const int = v.pipe(v.number(), v.integer());
export const num = v.number();
export const str = v.string();
export const nstr = v.nullable(v.string());
export const nint = v.nullable(int);
export const nnum = v.nullable(num);
export const bool = v.boolean();
const d = <S extends v.GenericSchema>(schema: S, text: string) => v.pipe(schema, v.description(text));

export const Figure = d(
  v.strictObject({
    central: d(
      nnum,
      'The mean of the Monte Carlo draws; null when the figure is INDICATIVE (quote its interval only).',
    ),
    low: d(num, '5th percentile of the draws (p05).'),
    median: d(num, '50th percentile (p50).'),
    high: d(num, '95th percentile (p95). In 90% of the draws the figure was between low and high.'),
    grade: d(
      v.picklist(['ROBUST', 'MODERATE', 'INDICATIVE']),
      "From the interval's spread high/low (≤ 3 ROBUST, ≤ 10 MODERATE, wider INDICATIVE), capped by the inputs (methodology v1 §9).",
    ),
    unit: d(str, 'What the figure counts, e.g. "deaths per kg".'),
    display: d(
      str,
      'Two significant figures with the interval, to quote: "3.9e-5 (1.7e-5–6.0e-5)", or "between 2.0e-8 and 6.0e-8" when INDICATIVE.',
    ),
    quotable: d(
      str,
      'The same figure per a round number of units people can say, by the rule of methodology v2 §10: "20–59 deaths per million phones"; it says so when the figure rests mostly on inputs that were not measured.',
    ),
    provenance: d(
      v.nullable(
        v.strictObject({
          published: d(num, 'Share of the value resting on published data as published.'),
          derived: d(num, 'Share resting on values derived from published data by a stated formula.'),
          assumption: d(num, 'Share resting on documented assumptions (at weakest).'),
          illustrative: d(num, 'Share resting on illustrative values (at weakest).'),
          summary: str,
        }),
      ),
      "How much of the value rests on each basis: each path of the figure counted at its weakest input (methodology v2 §2). Null for a breakdown's part (its headline carries it) and where nothing was attributed.",
    ),
  }),
  'A figure written by a published run and checked before it was served (rule 4).',
);
export const NFigure = v.nullable(Figure);

const SelfLink = v.strictObject({ self: str });
export const ProductLinks = v.strictObject({ self: str, contributions: str, explain: str });

export const ProductRef = d(
  v.strictObject({ slug: str, name: str, tier: v.picklist(['semi_finished', 'finished']), unit: str, links: SelfLink }),
  'A product as other payloads refer to it.',
);

export const Contribution = d(
  v.strictObject({
    key: d(
      str,
      "Material slug, ISO alpha-3 (or input-output region), conflict slug, channel code, sector code, bill-of-materials line, or layer; 'none' = not through one (e.g. harm through channels C2–C4 has no conflict).",
    ),
    label: str,
    seq: d(int, 'Order within its breakdown, largest first.'),
    share: d(
      nnum,
      "central ÷ the headline's central; null when either is INDICATIVE (a share would give back the withheld central value).",
    ),
    figure: Figure,
  }),
  'One part of a headline. The parts of a breakdown (and of an explain stage) add up to the headline.',
);

export const Reach = d(
  v.strictObject({
    metric: v.picklist(METRICS),
    rank: d(
      int,
      "0: the total per year attributed through the subject to the register's materials; 1…: the products it reaches, largest per kg of product first (at most 50).",
    ),
    product: v.nullable(ProductRef),
    figure: d(
      NFigure,
      "Rank 0: the total per year. Ranks ≥ 1: the product's part through the subject per kg of product, the unit every product is ranked in; null for a product with no unit mass (listed last).",
    ),
    per_unit: d(NFigure, 'Ranks ≥ 1: the same part per unit of the product (its own unit); null at rank 0.'),
    share: d(
      nnum,
      "Rank 0: attributed ÷ counted; ranks ≥ 1: of the product's headline. Null when a figure involved is INDICATIVE, or nothing was counted.",
    ),
    counted: d(
      nnum,
      'Rank 0 only: the harm counted per year for the subject (null for materials, and for injuries a source does not count).',
    ),
  }),
  'How much attributed harm goes through a material, conflict, country or channel, and which products it reaches.',
);

const Grades = v.strictObject({ ROBUST: int, MODERATE: int, INDICATIVE: int });
export const Metrics = d(
  v.strictObject({ figures: d(int, 'Figures in this response.'), grades: Grades }),
  'A summary of the figures in this response.',
);
export const ProductMetrics = d(
  v.strictObject({
    deaths_per_unit: NFigure,
    deaths_per_kg: NFigure,
    deaths_per_1000_eur: NFigure,
    injuries_per_unit: NFigure,
    injuries_per_kg: NFigure,
    injuries_per_1000_eur: NFigure,
    figures: int,
    grades: Grades,
  }),
  "The product's headline figures: per unit and per kg on the material route, per 1,000 EUR on the input-output route.",
);

export const RunObject = d(
  v.strictObject({
    id: int,
    scenario: v.picklist(SCENARIO_CODES),
    status: v.picklist(['validated', 'failed']),
    current: v.optional(d(v.boolean(), 'Whether this is the run its scenario serves now.')),
    published_at: nstr,
    methodology_version: str,
    data_version: str,
    draws: d(int, 'Monte Carlo draws per figure.'),
    seed: int,
    quantiles: d(str, "'p05,p50,p95': low, median, high."),
    illustrative: d(
      v.boolean(),
      'The run is on the demo register, illustrative as a whole (not for quotation). A run on the published register says per figure how much rests on illustrative inputs (its provenance).',
    ),
    engine: str,
    started_at: str,
    finished_at: str,
    rows_sha256: d(str, 'SHA-256 of every row the run wrote: the same inputs and seed give the same digest.'),
    inputs_sha256: str,
    links: SelfLink,
  }),
  'A run of the engine.',
);

export const SourceUsed = d(
  v.strictObject({
    code: str,
    name: str,
    publisher: str,
    homepage: str,
    licence: v.strictObject({ name: nstr, url: nstr, spdx: nstr }),
    credit: d(nstr, 'The credit the licence requires: give it with the figures.'),
    usage_restriction: d(nstr, 'e.g. non-commercial (GBD): every figure that used the source inherits it.'),
    verified_on: d(nstr, 'When the facts were checked against the source; null = not verified.'),
    releases: v.array(v.strictObject({ release: str, published_on: nstr, accessed_on: nstr, url: nstr })),
  }),
  "A source release the response's figures used.",
);

export const Licence = d(
  v.strictObject({
    name: d(
      str,
      'CC BY 4.0 when every source the figures used is openly licensed; otherwise says that the response is not open as a whole and names the restricting terms.',
    ),
    url: str,
    open: d(bool, 'True when the whole response may be reused under CC BY 4.0 with the credits.'),
    restrictions: d(
      v.array(v.strictObject({ source: str, restriction: str })),
      'Each used source that is not openly licensed, with what it restricts.',
    ),
    terms: d(
      v.array(
        v.strictObject({
          source: str,
          licence: str,
          url: nstr,
          open: bool,
          reuse: d(str, 'What may be done with the figures resting on this source, and under which terms.'),
        }),
      ),
      'One entry per source listed in sources.',
    ),
    note: str,
  }),
  'What the response may be reused under, composed from the sources its figures used (docs/decisions.md).',
);
export const Caveat = d(v.strictObject({ code: str, text: str }), 'A caveat that goes with the figures.');
export const Citation = d(
  v.strictObject({
    text: str,
    run_id: nint,
    scenario: str,
    methodology_version: str,
    data_version: nstr,
    url: d(str, 'The request in canonical form.'),
  }),
  'How to cite the response.',
);

export const Withheld = d(
  v.strictObject({ code: v.picklist(['no_published_run']), reason: str }),
  'Why figures are withheld; null when they are not.',
);

export function envelope<D extends v.GenericSchema, M extends v.GenericSchema>(
  data: D,
  metrics: M,
  description: string,
) {
  return d(
    v.strictObject({
      status: d(
        v.picklist(['published', 'withheld']),
        "published: the figures come from the scenario's published run; withheld: the scenario has none, and metrics and data.results are null.",
      ),
      scenario: v.picklist(SCENARIO_CODES),
      run: d(v.nullable(RunObject), 'The published run the figures come from; null while withheld.'),
      methodology_version: str,
      data_version: d(
        nstr,
        "The run's data version (the register's while withheld; null before any register is loaded).",
      ),
      metrics: d(v.nullable(metrics), 'Null while withheld.'),
      data,
      withheld: v.nullable(Withheld),
      sources: d(
        v.array(SourceUsed),
        "Only the source releases this response's figures used, each with its licence and required credit; empty while withheld.",
      ),
      licence: Licence,
      caveats: d(
        v.array(Caveat),
        'floor, production_phase, wording and quoting always; indicative, illustrative, not_measured, illustrative_inputs, usage_restriction and register_changed when they apply.',
      ),
      citation: Citation,
    }),
    description,
  );
}

export const ErrorBody = v.strictObject({
  error: v.strictObject({
    status: int,
    code: d(v.picklist(IMPACT_ERROR_CODES), 'Stable: branch on this.'),
    detail: d(str, 'Human text; for a 400 it names the parameter and what it accepts.'),
  }),
});
