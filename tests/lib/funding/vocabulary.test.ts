/**
 * The vocabulary (lib/funding/vocabulary.ts): the rule for EuroVoc's alternative labels on named
 * examples (one kept, one dropped, one searched but not looked up), the shipped data built again from
 * the shipped EuroVoc extract, and what runs of query words are labels of (plurals, false friends,
 * abbreviations, words that share a stem with another meaning).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  conceptsOf,
  eurovocConcepts,
  isOpposite,
  isTargetOnly,
  shippedVocabulary,
  type Concept,
} from '../../../lib/funding/vocabulary.ts';

const DIR = join(import.meta.dirname, '..', '..', '..', 'data', 'funding', 'eurovoc');
const read = (f: string) => readFileSync(join(DIR, f), 'utf8');
const shipped = JSON.parse(read('vocabulary.json')) as {
  counts: { concepts_in_eurovoc: number; opposites_dropped: number };
  concepts: Concept[];
};
const built = eurovocConcepts(read('eurovoc-en-es.tsv'), read('eurovoc-en-pref-supplement.tsv'));
const concept = (id: string) => built.concepts.find((c) => c.id === id)!;

test('the rule on named examples: an abbreviation kept, an opposite dropped, a posted-up narrower word only searched', () => {
  // 2359 small and medium-sized enterprises: PYME and SMEs are kept, and typing them finds the concept.
  assert.ok(concept('2359').es.includes('PYME'));
  assert.ok(concept('2359').en.includes('SMEs'));
  assert.ok(!(concept('2359').target_only ?? []).includes('PYME'));
  // 754 renewable energy: EuroVoc lists its opposite under it, in both languages; dropped.
  assert.ok(!concept('754').en.includes('non-renewable energy'));
  assert.ok(!concept('754').es.includes('energía no renovable'));
  assert.ok(concept('754').en.includes('renewable energy source'));
  const dropped = built.dropped.map((d) => `${d.concept} ${d.label}`);
  assert.ok(dropped.includes('754 non-renewable energy') && dropped.includes('754 energía no renovable'));
  assert.ok(dropped.includes('3913 desigualdad de género'), 'gender inequality under gender equality');
  // 5986 unemployed person: "desempleado" is searched for (calls say "personas desempleadas")...
  assert.ok(concept('5986').es.includes('desempleado'));
  // ...but a one-word label sharing no word with its preferred one is not looked up: "ganadero" is not
  // every farmer, "anciano" not every elderly person.
  assert.ok(concept('936').target_only?.includes('ganadero'));
  assert.ok(concept('2333').target_only?.includes('anciano'));
  // The example: "eficiencia" is an alternative label of productividad; calls mean energy efficiency.
  assert.ok(concept('2724').target_only?.includes('eficiencia'));
  assert.equal(
    conceptsOf(shippedVocabulary(), ['ganadero'])
      .map((i) => shippedVocabulary().concepts[i]!.id)
      .includes('936'),
    false,
  );
});

test('opposites: a negation word, or a concept word with a negating prefix', () => {
  const cases: Array<[string, string[], boolean]> = [
    ['non-renewable energy', ['renewable', 'energy'], true],
    ['energía no renovable', ['energía', 'renovable'], true],
    ['gender inequality', ['gender', 'equality'], true],
    ['desigualdad de género', ['igualdad', 'género'], true],
    ['renewable energy source', ['renewable', 'energy'], false],
    ['PYME', ['pequeña', 'mediana', 'empresa'], false],
  ];
  for (const [label, words, opposite] of cases)
    assert.equal(
      isOpposite(label, new Set(words.map((w) => w.normalize('NFD').replace(/\p{M}/gu, '')))),
      opposite,
      label,
    );
  assert.equal(isTargetOnly('ganadero', 'agricultor', 'es'), true);
  assert.equal(isTargetOnly('PYME', 'pequeña y mediana empresa', 'es'), false);
  assert.equal(isTargetOnly('renewable energy source', 'renewable energy', 'en'), false);
});

test('the shipped vocabulary builds from the shipped EuroVoc files: the same text gives the same concepts', () => {
  const again = eurovocConcepts(read('eurovoc-en-es.tsv'), read('eurovoc-en-pref-supplement.tsv'));
  assert.deepEqual(again, built);
  assert.equal(built.concepts.length, shipped.counts.concepts_in_eurovoc);
  assert.equal(built.dropped.length, shipped.counts.opposites_dropped);
  // Every shipped concept is EuroVoc's, with the labels the rule keeps (the corpus chose which).
  const byId = new Map(built.concepts.map((c) => [c.id, c]));
  for (const c of shipped.concepts) assert.deepEqual(c, byId.get(c.id), c.id);
});

test('what a run of query words is a label of: plurals, people/person, abbreviations as written, false friends', () => {
  const v = shippedVocabulary();
  const ids = (run: string) => conceptsOf(v, run.split(' ')).map((i) => v.concepts[i]!.id);
  const cases: Array<[string, string]> = [
    ['gender equality', '3913'],
    ['elderly people', '2333'], // the label is "elderly person"
    ['books', '1392'], // "book", an alternative label of book trade, whose Spanish labels hold "libro"
    ['libros', '1392'],
    ['unemployed people', '5986'],
    ['farmers', '936'],
    ['pymes', '2359'], // "PYME"
    ['social services', '4143'],
  ];
  for (const [run, id] of cases) assert.ok(ids(run).includes(id), `${run} → ${id}: ${ids(run).join(', ')}`);
  // A shared stem is not the same word: "ayudas" is not "ayudante", "water" not "watering", "aid" not AIDS.
  for (const [run, label] of [
    ['ayudas', 'auxiliar'],
    ['water', 'irrigation'],
    ['aid', 'AIDS'],
  ] as const)
    for (const i of conceptsOf(v, [run]))
      assert.ok(![...v.concepts[i]!.en, ...v.concepts[i]!.es].includes(label), `${run} must not find ${label}`);
  // False friends: one word that each language labels with another meaning is not expanded...
  assert.ok(v.falseFriends.size > 0);
  for (const w of v.falseFriends) assert.deepEqual(conceptsOf(v, [w]), [], w);
  // ...unless the glossary says what it means: "sme" is EuroVoc's Spanish for the European Monetary System too.
  assert.ok(conceptsOf(v, ['sme']).length > 0);
});

test('English inflection reaches the labels: irregular plurals and -ves/-ies/-men forms, alone and in a run', () => {
  const v = shippedVocabulary();
  const labels = (run: string) => conceptsOf(v, run.split(' ')).flatMap((i) => [...v.concepts[i]!.en]);
  // Each query word is typed as a user would; the label is EuroVoc's (a concept the corpus holds).
  const cases: Array<[string, string]> = [
    ['women', 'woman'],
    ['pregnant women', 'pregnant woman'],
    ['fishermen', 'fisherman'],
    ['craftsmen', 'craftsman'],
    ['children', 'child'],
    ['calves', 'calf'],
    ['quality of lives', 'quality of life'],
    ['social lives', 'social life'],
    ['taxes', 'tax'],
  ];
  for (const [run, label] of cases)
    assert.ok(labels(run).includes(label), `${run} → ${label}: ${labels(run).join(', ')}`);
  // Spanish -ces → -z.
  assert.ok(conceptsOf(v, ['arroces']).some((i) => v.concepts[i]!.es.includes('arroz')));
  // A candidate counts only where it is a label: "archives" is not "archif", "omen" is not "oman".
  assert.ok(labels('archives').some((l) => /archive/i.test(l)));
  assert.ok(!labels('omen').includes('Oman'));
});
