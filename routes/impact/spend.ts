/**
 * GET /spend: harm attributed to consumer spending per COICOP 2018 category (impact_coicop for the
 * categories; impact_spend and impact_spend_left_out of the run for the figures). The run stores harm
 * per EUR; this endpoint multiplies every statistic by `amount`, the one arithmetic SPEC allows here,
 * and checks the scaled figure like any other. The reference row (`all`, the average household EUR)
 * is always included so that a category can be read against it.
 */
import type { SpendRow } from '../../db/impact/queries/figures.ts';
import type { CoicopRow } from '../../db/impact/queries/register.ts';
import { notFound } from '../../lib/http/errors.ts';
import { scaleRow } from '../../lib/impact/check-figure.ts';
import { parseParams as parseScenarioParams } from '../../lib/impact/scenario.ts';
import { IMPACT_BASE } from './links.ts';
import { DEFAULT_SCENARIO, noQuery, spendQuery } from './schemas.ts';
import type { FigureSession, RouteDef } from './serve.ts';

export const DEFAULT_AMOUNT = 1000;

/** A division selects itself and its groups (07 → 07, 07-01 … 07-04); a group selects itself. */
function select(codes: CoicopRow[], category: string | undefined): CoicopRow[] {
  if (category === undefined) return codes;
  return codes.filter((c) => c.code === category || (!category.includes('-') && c.parent === category));
}

export const spendRoute: RouteDef<typeof spendQuery, typeof noQuery> = {
  path: '/spend',
  operationId: 'getSpend',
  summary: 'Harm attributed to spending, by COICOP 2018 category',
  description:
    'Deaths and injuries attributed to the supply chains of `amount` euros of household spending in each COICOP 2018 division and group (input-output route), beside the average household euro (the reference row, code all). Every figure and its interval scale with amount. left_out says what part of spending no industry covers, and why.',
  response: 'SpendResponse',
  query: spendQuery,
  defaults: { scenario: DEFAULT_SCENARIO, amount: DEFAULT_AMOUNT },
  build({ query }, deps) {
    const scenario = query.scenario ?? DEFAULT_SCENARIO;
    const amount = query.amount ?? DEFAULT_AMOUNT;
    const all = deps.register.coicop();
    const selected = select(all, query.category);
    if (query.category !== undefined && selected.length === 0)
      throw notFound(
        `No COICOP 2018 category '${query.category}' in the register. The categories are listed by ${IMPACT_BASE}/spend.`,
      );
    const row = deps.register.scenarios().find((s) => s.code === scenario);
    const consumer = row ? parseScenarioParams(JSON.parse(row.params) as unknown, row.code).consumer : 'EUR';
    const region = deps.catalogue.regions().get(consumer);
    return {
      scenario,
      data: {
        amount_eur: amount,
        consumer: region ? `${consumer} (${region})` : consumer,
        categories: selected.map((c) => ({
          code: c.code,
          name: c.name,
          divisions: c.level === 'division' ? c.code : (c.parent ?? c.code),
          note: c.note,
        })),
        records: null,
      },
      figures: (f: FigureSession) => {
        f.use('spend');
        const stored = new Map<string, SpendRow>();
        for (const r of deps.figures.spend(f.run.id, consumer)) stored.set(`${r.code}|${r.metric}`, r);
        const figure = (code: string, metric: string) => {
          const r = stored.get(`${code}|${metric}`);
          return r
            ? f.figure(
                scaleRow(r, amount),
                `spend ${code} ${metric} × ${amount}`,
                `${metric} per ${amount} EUR spent`,
                f.runCap(),
              )
            : null;
        };
        const line = (code: string, c: CoicopRow | null) => {
          const r = stored.get(`${code}|deaths`) ?? stored.get(`${code}|injuries`);
          return {
            code,
            reference: c === null,
            deaths: figure(code, 'deaths'),
            injuries: figure(code, 'injuries'),
            share_of_spend: r?.share_of_spend ?? null,
            made_in_consumer: r?.made_in_consumer ?? null,
            group:
              c === null
                ? null
                : {
                    level: c.level,
                    division: c.level === 'division' ? c.code : (c.parent ?? c.code),
                    consumption: c.group_code,
                  },
          };
        };
        return {
          results: {
            rows: [line('all', null), ...selected.map((c) => line(c.code, c))],
            left_out: deps.figures.leftOut(f.run.id, consumer),
          },
        };
      },
    };
  },
};
