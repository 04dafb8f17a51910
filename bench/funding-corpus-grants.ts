/**
 * Issue 27's fields of the synthetic funding corpus (bench/funding-corpus.ts adds them to each row of
 * bench/funding-corpus-rows.ts): who may apply, the per-grant ceiling, and when an import last saw
 * the call change. Drawn from each row's own stream 2, so the other fields stay as generator v2 drew
 * them. Shares follow the real records (data/funding): BDNS details state tiposBeneficiarios (of the 73
 * real ones: legal persons without economic activity 61, SMEs and the self-employed 28, large
 * companies 18, individuals 11), EU topics a type of action, BOE notices nothing.
 */
import { applicantMask } from '../lib/funding/applicants.ts';
import { CORPUS_NOW, rowRng } from './funding-corpus-rows.ts';

const DAY_MS = 86_400_000;

const BDNS = [
  ['PERSONAS JURÍDICAS QUE NO DESARROLLAN ACTIVIDAD ECONÓMICA', 61 / 73],
  ['PYME Y PERSONAS FÍSICAS QUE DESARROLLAN ACTIVIDAD ECONÓMICA', 28 / 73],
  ['GRAN EMPRESA', 18 / 73],
  ['PERSONAS FÍSICAS QUE NO DESARROLLAN ACTIVIDAD ECONÓMICA', 11 / 73],
] as const;
const EU: Array<[string, number]> = [
  ['HORIZON-RIA', 0.4],
  ['HORIZON-IA', 0.25],
  ['HORIZON-CSA', 0.15],
  ['DIGITAL-SIMPLE', 0.1],
  ['ERASMUS-CERT', 0.05],
  ['AGRIP-MULTI-PJG', 0.05],
];

export interface GrantFields {
  applicant_terms: string;
  applicant_mask: number;
  award_ceiling: number | null;
  changed_at: number | null;
}

export function grantFields(
  i: number,
  row: { source: string; budget: number | null; imported_at: number; closes_at: number | null },
): GrantFields {
  const r = rowRng(i, 2);
  let terms: string[] = [];
  if (row.source === 'bdns' && r() < 0.85) {
    terms = BDNS.filter(([, p]) => r() < p).map(([t]) => t);
    if (terms.length === 0) terms = [BDNS[0][0]];
  } else if (row.source === 'eu' && r() < 0.9) {
    let x = r();
    terms = [EU.find(([, p]) => (x -= p) < 0)?.[0] ?? 'HORIZON-RIA'];
  }
  const award =
    row.source === 'eu' && row.budget !== null && r() < 0.6
      ? Math.round(row.budget / (1 + Math.floor(r() * 10)) / 1000) * 1000
      : null;
  // About 2 % of calls changed in the last 90 days (deadline extended, budget raised…), more among recent ones.
  const recent = row.imported_at > CORPUS_NOW - 365 * DAY_MS;
  const changedAt =
    r() < (recent ? 0.06 : 0.005)
      ? Math.max(row.imported_at + DAY_MS, CORPUS_NOW - Math.floor(r() * 90 * DAY_MS))
      : null;
  return {
    applicant_terms: JSON.stringify(terms),
    applicant_mask: applicantMask(row.source, terms),
    award_ceiling: award,
    changed_at: changedAt !== null && changedAt < CORPUS_NOW ? changedAt : null,
  };
}
