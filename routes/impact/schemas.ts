/**
 * The impact API's request parameters, exactly as the document bounds them (patterns, lengths, enums,
 * `amount` > 0 and ≤ 1,000,000,000). lib/validate.ts turns a failure into a 400 whose detail names
 * the parameter and what it accepts; the same schemas generate the contract's parameters.
 */
import * as v from 'valibot';
import { SCENARIO_CODES } from '../../lib/impact/scenario.ts';
import { enumParam, stringParam } from '../../lib/validate.ts';

export const DEFAULT_SCENARIO = 'S-MAX';
export const METRICS = ['deaths', 'injuries'] as const;
export const METHODS = ['material', 'mrio'] as const;
export const BREAKDOWNS = [
  'material',
  'country',
  'conflict',
  'channel',
  'sector',
  'basis',
  'basis_counts',
  'basis_attribution',
  'basis_materials',
  'basis_bom',
] as const;
export const PRODUCT_SORTS = ['name', 'toll', 'confidence', 'complete'] as const;
export const TIERS = ['semi_finished', 'finished'] as const;
export const AMOUNT_MAX = 1_000_000_000;

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const slugAccepts =
  'a slug: lowercase letters and digits in words joined by single hyphens, at most 80 characters (e.g. smartphone)';

export const slug = (description: string) => stringParam({ max: 80, pattern: SLUG, accepts: slugAccepts, description });

export const scenario = v.optional(
  enumParam(
    SCENARIO_CODES,
    'Attribution scenario: S-MAX (the published default), S-EVID, S-RES, S-ARMS or S-CONS. While it has no published run, its figures are withheld.',
  ),
);
const metric = v.optional(enumParam(METRICS, 'deaths (default) or injuries.'));

export const noQuery = v.object({});
export const scenarioQuery = v.object({ scenario });

export const productsQuery = v.object({
  tier: v.optional(enumParam(TIERS, 'Only products of this tier.')),
  category: v.optional(
    stringParam({
      max: 40,
      pattern: /^[a-z0-9]+([_-][a-z0-9]+)*$/,
      accepts:
        'a category code: lowercase letters and digits joined by single _ or -, at most 40 characters (e.g. electronics)',
      description: 'Only products of this category (its code, as in category.code). 404 when no such category exists.',
    }),
  ),
  sort: v.optional(
    enumParam(
      PRODUCT_SORTS,
      'name (default); toll: deaths per kg on the material route, largest first (name order while figures are withheld); confidence: bill-of-materials confidence, best first; complete: complete bills of materials first.',
    ),
  ),
  scenario,
});

export const productParams = v.object({ slug: slug('Product slug.') });

export const contributionsQuery = v.object({
  metric,
  method: v.optional(
    enumParam(
      METHODS,
      'material (default): through the bill of materials, per unit; mrio: the input-output route, per 1,000 EUR of the product.',
    ),
  ),
  type: v.optional(
    enumParam(
      BREAKDOWNS,
      'One breakdown; all breakdowns of the route when absent. The mrio route breaks down by country (its regions), channel, sector and basis. basis…: by what the headline rests on (methodology v2 §2).',
    ),
  ),
  scenario,
});

export const explainQuery = v.object({ metric, scenario });

export const compareQuery = v.object({
  a: slug('The first product (the ratio is a / b).'),
  b: slug('The second product.'),
  metric,
  scenario,
});

export const spendQuery = v.object({
  category: v.optional(
    stringParam({
      max: 5,
      pattern: /^[0-9]{2}(-[0-9]{2})?$/,
      accepts: 'a COICOP 2018 division such as 07, or division-group such as 07-01 (for 07.1)',
      description:
        'A COICOP 2018 division (07: the division and its groups) or division-group (07-01); all categories when absent. 404 when the register has no such code.',
    }),
  ),
  amount: v.optional(
    v.pipe(
      v.string(),
      v.regex(
        /^[0-9]{1,10}(\.[0-9]{1,9})?$/,
        'a number of euros greater than 0 and at most 1000000000, in digits with an optional decimal point (e.g. 1000 or 49.90)',
      ),
      v.toNumber(),
      v.number(),
      v.gtValue(0, 'a number of euros greater than 0 and at most 1000000000'),
      v.maxValue(AMOUNT_MAX, 'a number of euros greater than 0 and at most 1000000000'),
      v.description(
        'Euros spent, greater than 0 and at most 1000000000; default 1000. Every figure and its interval scale with it.',
      ),
    ),
  ),
  scenario,
});

export const materialParams = v.object({ slug: slug('Material slug.') });
export const conflictParams = v.object({ slug: slug('Conflict slug.') });

export const countryParams = v.object({
  iso3: stringParam({
    min: 3,
    max: 3,
    pattern: /^[A-Za-z]{3}$/,
    accepts: 'an ISO 3166-1 alpha-3 code such as COD, in either case',
    description: 'ISO 3166-1 alpha-3 code, either case.',
  }),
});

export const channelParams = v.object({
  code: stringParam({
    min: 2,
    max: 2,
    pattern: /^[Cc][1-5]$/,
    accepts: 'a harm channel code C1 to C5, in either case (C1 conflict, C2 work, C3 deprivation, C4 exposure)',
    description: 'Harm channel code, either case.',
  }),
});

export const runParams = v.object({
  id: v.pipe(
    v.string(),
    v.regex(/^[0-9]{1,15}$/, 'a run id: an integer of at least 1'),
    v.toNumber(),
    v.number(),
    v.integer('a run id: an integer of at least 1'),
    v.minValue(1, 'a run id: an integer of at least 1'),
    v.description('Run id, as a citation names it.'),
  ),
});

export const searchQuery = v.object({
  q: stringParam({
    min: 2,
    max: 64,
    accepts: 'text of 2 to 64 characters',
    description:
      'What to find: part of a name, a slug, an ISO alpha-3 or alpha-2 code, or a channel code. Case and accents are ignored.',
  }),
});
