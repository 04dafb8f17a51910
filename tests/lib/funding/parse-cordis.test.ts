import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseCsv } from '../../../lib/funding/csv.ts';
import { coordinatorIsPerson, parseCordis } from '../../../lib/funding/parse-cordis.ts';
import { ImportFormatError } from '../../../lib/funding/records.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'funding');
const read = (p: string) => readFileSync(join(FIXTURES, p), 'utf8');
const HEADER =
  'id;acronym;status;title;startDate;endDate;totalCost;ecMaxContribution;legalBasis;topics;ecSignatureDate;frameworkProgramme;masterCall;subCall;fundingScheme;nature;objective;contentUpdateDate;rcn;grantDoi';
const row = (over: Record<number, string> = {}) => {
  const f = [
    '101000001',
    'ACR',
    'SIGNED',
    'A title',
    '2026-01-01',
    '2028-12-31',
    '1000',
    '800',
    'LB',
    'HORIZON-X-01',
    '',
    'HORIZON',
    '',
    '',
    'RIA',
    '',
    'Objective',
    '',
    '1',
    '',
  ];
  for (const [i, v] of Object.entries(over)) f[Number(i)] = v;
  return f.join(';');
};

test('parseCsv: quoting rules, tolerant of unescaped quotes', () => {
  const cases: Array<[string, string[][]]> = [
    ['a;b;c', [['a', 'b', 'c']]],
    ['a;;c\n', [['a', '', 'c']]],
    ['"a;b";c', [['a;b', 'c']]],
    ['"line one\nline two";x', [['line one\nline two', 'x']]],
    ['"He said ""hi""";x', [['He said "hi"', 'x']]],
    ['"The "blue carbon" demonstrator";x', [['The "blue carbon" demonstrator', 'x']]],
    ['"so-called "nature-based"";x', [['so-called "nature-based"', 'x']]],
    ['"so-called ""nature-based""";x', [['so-called "nature-based"', 'x']]],
    ['plain "quoted" word;x', [['plain "quoted" word', 'x']]],
    ['"";""', [['', '']]],
    [
      'a;b\r\nc;d\r\n',
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    ],
    [
      '\uFEFFid;name\n1;x',
      [
        ['id', 'name'],
        ['1', 'x'],
      ],
    ],
    ['a\n\nb', [['a'], ['b']]],
    ['"unterminated;x', [['unterminated;x']]],
  ];
  for (const [input, expected] of cases)
    assert.deepEqual(
      parseCsv(input).map((r) => r.fields),
      expected,
      JSON.stringify(input),
    );
});

test('parseCsv: each row knows the line it starts on, even after a line break inside a field', () => {
  const rows = parseCsv('h1;h2\n"two\nlines";x\nlast;y\n');
  assert.deepEqual(
    rows.map((r) => r.line),
    [1, 2, 4],
  );
});

test('CORDIS fixture: every row read, unescaped quotes and separators inside quotes survive', () => {
  const { projects, coordinatorsKnown } = parseCordis({
    project: read('cordis/project.csv'),
    organization: read('cordis/organization.csv'),
  });
  assert.equal(coordinatorsKnown, true);
  assert.equal(projects.length, 6);
  const by = new Map(projects.map((p) => [p.source_id, p]));
  assert.equal(by.get('101148377')!.title, 'The "blue carbon" coastal wetlands demonstrator for the North Sea');
  const steppe = by.get('101148213')!;
  assert.equal(steppe.topic, 'LIFE-2025-SAP-NAT', 'topics is the SEDIA topic id: the join to EU calls');
  assert.equal(steppe.total_cost, 4875320.5, 'decimal comma');
  assert.equal(steppe.ec_contribution, 2925192.3);
  assert.deepEqual(
    [steppe.start_date, steppe.end_date, steppe.status, steppe.framework],
    ['2026-02-01', '2031-01-31', 'SIGNED', 'LIFE'],
  );
  assert.equal(steppe.url, 'https://cordis.europa.eu/project/id/101148213');
  assert.equal(by.get('101091234')!.topic, 'HORIZON-CL4-2022-DIGITAL-EMERGING-01-12');
  assert.ok(projects.every((p) => !p.personal_data));
});

test('CORDIS fixture: coordinators named, natural persons withheld (name and country)', () => {
  const { projects, coordinatorsWithheld } = parseCordis({
    project: read('cordis/project.csv'),
    organization: read('cordis/organization.csv'),
  });
  const coord = Object.fromEntries(projects.map((p) => [p.source_id, [p.coordinator, p.coordinator_country]]));
  assert.deepEqual(coord, {
    '101148213': ['SOCIEDAD ESPAÑOLA DE ORNITOLOGIA', 'ES'], // OTH, but a G… association VAT: kept
    '101148377': ['STICHTING DELTARES', 'NL'],
    '101159002': [null, null], // no VAT, OTH, a personal name
    '101084411': ['IBERDROLA ESPAÑA SA', 'ES'],
    '101084502': [null, null], // VAT is a DNI
    '101091234': ['TECHNISCHE UNIVERSITEIT EINDHOVEN', 'NL'],
  });
  assert.equal(coordinatorsWithheld, 2);
  assert.ok(!JSON.stringify(projects).includes('Quintana') && !JSON.stringify(projects).includes('ORTEGA'));
});

test('coordinatorIsPerson: the documented rule', () => {
  const cases: Array<[string | null, string | null, string | null, boolean]> = [
    ['ES12345678Z', 'PRC', 'JAVIER ORTEGA SANZ', true],
    ['12345678Z', 'PRC', 'ANY NAME', true],
    ['ESX1234567L', 'OTH', 'ANNA SMITH', true],
    ['ESE12345678', 'PRC', 'HERMANOS GARCIA CB', true], // comunidad de bienes
    ['ESB12345678', 'PRC', 'JUAN PEREZ', false], // an S.L. named after its founder
    ['DE123456789', 'PRC', 'Hans Müller', false], // a foreign VAT number: a registered business
    ['', 'OTH', 'Marta Quintana Ferrer', true],
    ['MISSING', 'PRC', "Seán O'Brien", true],
    [null, null, 'Jean-Luc Picard', true],
    ['', 'HES', 'Ada Lovelace', false], // an institution type never is a person
    ['', 'OTH', 'Green Energy Cooperative', false],
    ['', 'PRC', 'ACME GMBH', false],
    ['', 'PRC', 'ESTUDIO S.L.', false],
    ['', 'OTH', 'Instituto Tecnológico', false],
    ['', 'OTH', 'CERN', false], // one word
    ['', 'PRC', 'Lab 42 Ventures', false], // digits
    ['', 'OTH', null, false],
    ['', 'OTH', 'Universität Wien', false], // accented organisational words
    ['', 'PRC', 'Ana Labrador Ruiz', true], // a surname is not "lab"
    ['', 'OTH', 'José Álvarez', true],
  ];
  for (const [vat, type, name, expected] of cases)
    assert.equal(coordinatorIsPerson(vat, type, name), expected, `${vat} ${type} ${name}`);
});

test('without organization.csv no coordinator is known', () => {
  const { projects, coordinatorsKnown, coordinatorsWithheld } = parseCordis({ project: read('cordis/project.csv') });
  assert.equal(coordinatorsKnown, false);
  assert.equal(coordinatorsWithheld, 0);
  assert.ok(projects.every((p) => p.coordinator === null));
});

test('a project about a person (a DNI in its title or objective) is flagged', () => {
  const text = [
    HEADER,
    row({ 3: 'Ayuda a 12345678Z' }),
    row({ 0: '101000002', 16: 'Grant to ***4821**' }),
    row({ 0: '101000003' }),
  ].join('\n');
  assert.deepEqual(
    parseCordis({ project: text }).projects.map((p) => p.personal_data),
    [true, true, false],
  );
});

test('malformed CORDIS input is refused naming the line and project', () => {
  const cases: Array<[string, RegExp]> = [
    [read('malformed/cordis-project.csv'), /^project\.csv line 3 \(id 101148377\): startDate is not a date/],
    [[HEADER, row({ 6: 'n/a' })].join('\n'), /^project\.csv line 2 \(id 101000001\): totalCost is not a number/],
    [[HEADER, row({ 9: '' })].join('\n'), /^project\.csv line 2 \(id 101000001\): topics is empty/],
    [[HEADER, row({ 0: 'X1' })].join('\n'), /^project\.csv line 2 \(id X1\): id is not a CORDIS project number/],
    [[HEADER, `${row()};extra`].join('\n'), /^project\.csv line 2 \(id 101000001\): has 21 fields, the header has 20/],
    [HEADER.replace(';topics', ''), /^project\.csv header: missing column topics/],
    ['', /^project\.csv: the file is empty/],
  ];
  for (const [text, expected] of cases) {
    assert.throws(
      () => parseCordis({ project: text }),
      (e: unknown) => e instanceof ImportFormatError && expected.test(e.message),
      String(expected),
    );
  }
  assert.throws(
    () => parseCordis({ project: [HEADER, row()].join('\n'), organization: 'projectID;name\n1;x' }),
    /organization\.csv header: missing column role/,
  );
});
