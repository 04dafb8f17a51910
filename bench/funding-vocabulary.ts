/**
 * Word lists for the synthetic funding corpus (bench/funding-corpus-rows.ts), read from
 * funding-vocabulary.json: real Spanish and English grant vocabulary, most frequent first. The
 * generator draws from them with Zipf-like weights by rank, so a handful of words (ayudas,
 * subvenciones, support, innovation) match a large share of the corpus and a long tail matches a few
 * calls each, as in the real BDNS and EU portal data. Derived forms (stems × endings), towns (heads ×
 * tails) and invented rare words (from the syllables) lengthen the tail to several thousand distinct
 * words; bench/funding-corpus-rows.ts builds them from these lists deterministically, so the order of
 * every list is part of the corpus: reordering one changes every generated row.
 *
 * The lists: function words (`esStop`, `enStop`: drawn between content words), content words
 * (`esContent`, `enContent`), stems and endings, places (`esPlaces`, `townHeads`, `townTails`),
 * recurring multi-word topics (`esTopics`, `enTopics`: phrase queries find them), syllables for rare
 * words, programmes and their codes, funders, regions, the other countries of EU calls, the texts of
 * calls without a deadline, and the heads and links of titles.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Words = readonly string[];

export interface FundingWords {
  esStop: Words;
  enStop: Words;
  esContent: Words;
  esStems: Words;
  esEndings: Words;
  esPlaces: Words;
  townHeads: Words;
  townTails: Words;
  esTopics: Words;
  enTopics: Words;
  enContent: Words;
  enStems: Words;
  enEndings: Words;
  syllables: Words;
  programmesEu: Words;
  /** The call-identifier code of each EU programme (HORIZON-2026-CL5-…). */
  programmeCodes: Readonly<Record<string, string>>;
  programmesEs: Words;
  fundersEs: Words;
  regionsEs: Words;
  fundersEu: Words;
  otherCountries: Words;
  deadlineTexts: Words;
  esTitleHeads: Words;
  esTitleLinks: Words;
  enTitleHeads: Words;
  enTitleLinks: Words;
}

function load(): FundingWords {
  const file = join(import.meta.dirname, 'funding-vocabulary.json');
  const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  for (const [name, value] of Object.entries(data)) {
    if (name === 'about' || name === 'programmeCodes') continue;
    if (!Array.isArray(value) || value.length === 0 || !value.every((w) => typeof w === 'string' && w !== ''))
      throw new Error(`${file}: ${name} must be a non-empty list of words`);
  }
  return data as unknown as FundingWords;
}

export const WORDS = load();
