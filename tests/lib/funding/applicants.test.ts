/**
 * Who may apply: every value the real records carry maps to the vocabulary (an unmapped one fails
 * naming it and its file), read from the files themselves, not through the parsers: BDNS details'
 * tiposBeneficiarios, the EU bulk file's topicActions, SEDIA's typesOfAction (data/funding, the real
 * records; fixtures/funding, the trap files in the same formats). Then what the mapping decides.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import {
  APPLICANT_TYPES,
  applicantMask,
  maskOfTypes,
  typesOfMask,
  typesOfTerm,
  unmappedTerms,
  type ApplicantSource,
} from '../../../lib/funding/applicants.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');

function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'malformed' ? [] : jsonFiles(path);
    return name.endsWith('.json') ? [path] : [];
  });
}

/** Every [source, value, file] the raw files carry, found by walking their JSON. */
function termsInFiles(): Array<[ApplicantSource, string, string]> {
  const found: Array<[ApplicantSource, string, string]> = [];
  const walk = (v: unknown, file: string): void => {
    if (Array.isArray(v)) return v.forEach((x) => walk(x, file));
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    if (Array.isArray(o.tiposBeneficiarios))
      for (const t of o.tiposBeneficiarios)
        found.push(['bdns', typeof t === 'string' ? t : String((t as { descripcion: unknown }).descripcion), file]);
    if (Array.isArray(o.topicActions))
      for (const a of o.topicActions) found.push(['eu', String((a as { abbreviation: unknown }).abbreviation), file]);
    if (Array.isArray(o.typesOfAction)) for (const a of o.typesOfAction) found.push(['eu', String(a), file]);
    for (const x of Object.values(o)) walk(x, file);
  };
  for (const dir of [join(ROOT, 'data', 'funding'), join(ROOT, 'fixtures', 'funding')])
    for (const file of jsonFiles(dir)) walk(JSON.parse(readFileSync(file, 'utf8')), relative(ROOT, file));
  return found;
}

const found = termsInFiles();

test('the real records carry applicant terms from both sources (the walk finds them)', () => {
  const bdns = new Set(found.filter(([s]) => s === 'bdns').map(([, t]) => t));
  const eu = new Set(found.filter(([s]) => s === 'eu').map(([, t]) => t));
  // The four BDNS categories all occur in the 73 real details; the EU records' types of action too.
  assert.equal(bdns.size, 4, [...bdns].join(' | '));
  assert.ok(
    eu.has('HORIZON-IA') && eu.has('Research and Innovation action') && eu.has('ERASMUS-CERT'),
    [...eu].join(' | '),
  );
});

for (const [source, term, file] of [...new Map(found.map((f) => [`${f[0]}|${f[1]}`, f])).values()]) {
  test(`${source} term "${term}" (${file}) maps to the vocabulary`, () => {
    assert.deepEqual(unmappedTerms(source, [term]), [], `unmapped ${source} value "${term}" in ${file}`);
    const types = typesOfTerm(source, term)!;
    assert.ok(types.length > 0 && types.every((t) => (APPLICANT_TYPES as readonly string[]).includes(t)));
  });
}

test('what the BDNS categories mean', () => {
  const cases: Array<[string, string[]]> = [
    ['PERSONAS FÍSICAS QUE NO DESARROLLAN ACTIVIDAD ECONÓMICA', ['individual']],
    ['PYME Y PERSONAS FÍSICAS QUE DESARROLLAN ACTIVIDAD ECONÓMICA', ['sme', 'self_employed']],
    ['GRAN EMPRESA', ['large_company']],
    // Associations, foundations, public bodies and universities alike: BDNS does not tell them apart.
    ['PERSONAS JURÍDICAS QUE NO DESARROLLAN ACTIVIDAD ECONÓMICA', ['non_profit', 'public_body', 'research']],
    // Spacing and case as a careless export might write them.
    ['  gran   empresa ', ['large_company']],
  ];
  for (const [term, types] of cases) assert.deepEqual(typesOfTerm('bdns', term), types, term);
});

test('EU types of action: any legal entity, or the one kind a programme admits', () => {
  assert.deepEqual(typesOfMask(applicantMask('eu', ['HORIZON-RIA'])), [
    'sme',
    'large_company',
    'non_profit',
    'public_body',
    'research',
  ]);
  assert.deepEqual(typesOfMask(applicantMask('eu', ['ERASMUS-CERT'])), ['research']);
  assert.deepEqual(
    typesOfMask(applicantMask('eu', ['HORIZON Innovation Actions'])),
    typesOfMask(applicantMask('eu', ['horizon-ia'])),
  );
});

test('masks: unknown and unstated terms map to nothing; other sources state nothing; bits round-trip', () => {
  assert.equal(applicantMask('bdns', []), 0);
  assert.equal(applicantMask('bdns', ['SIN INFORMACIÓN']), 0);
  assert.deepEqual(unmappedTerms('bdns', ['GRAN EMPRESA', 'SIN INFORMACIÓN']), ['SIN INFORMACIÓN']);
  assert.equal(applicantMask('boe', ['GRAN EMPRESA']), 0);
  assert.equal(applicantMask('bdns', ['GRAN EMPRESA', 'GRAN EMPRESA']), maskOfTypes(['large_company']));
  for (let mask = 0; mask < 1 << APPLICANT_TYPES.length; mask++) assert.equal(maskOfTypes(typesOfMask(mask)), mask);
});
