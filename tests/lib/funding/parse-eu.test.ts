import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { brusselsCutoff, parseEu, statedTime } from '../../../lib/funding/parse-eu.ts';
import { ImportFormatError, type CallRecord } from '../../../lib/funding/records.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'funding');
const read = (p: string) => readFileSync(join(FIXTURES, p), 'utf8');
const byId = (calls: CallRecord[]) => new Map(calls.map((c) => [c.source_id, c]));

test('bulk grantsTenders.json: grants imported, tenders skipped, programme from the file', () => {
  const { format, calls, skipped } = parseEu(read('eu/grantsTenders.json'));
  assert.equal(format, 'grantsTenders');
  assert.equal(skipped, 1);
  const calls_ = byId(calls);
  assert.ok(!calls_.has('EC-CNECT/2026/OP/0034'), 'the tender (type 0) is skipped');
  assert.equal(calls.length, 8);
  const cl5 = calls_.get('HORIZON-CL5-2027-D3-01-05')!;
  assert.equal(
    cl5.url,
    'https://ec.europa.eu/info/funding-tenders/opportunities/portal/screen/opportunities/topic-details/HORIZON-CL5-2027-D3-01-05',
  );
  assert.equal(cl5.programme, 'Horizon Europe (HORIZON)');
  assert.equal(
    calls_.get('EU4H-2026-PJ-02')!.programme,
    'EU4Health Programme (EU4H)',
    'programme id 43332642 is EU4Health here',
  );
  assert.deepEqual(
    [cl5.country, cl5.time_zone, cl5.funder, cl5.language],
    ['EU', 'Europe/Brussels', 'European Commission', 'en'],
  );
  assert.deepEqual([cl5.published_on, cl5.opening_on], ['2026-05-12', '2026-09-16']);
  assert.match(cl5.body!, /Sustainable, secure and competitive energy supply/);
  assert.match(cl5.body!, /Thermal energy storage/);
});

test('bulk: deadlines are date-only (the UTC date, no time), sorted; status kept as the source says', () => {
  const calls = byId(parseEu(read('eu/grantsTenders.json')).calls);
  assert.deepEqual(calls.get('HORIZON-CL4-2027-DIGITAL-EMERGING-01-12')!.cutoffs, [
    { date: '2026-09-15', time: null },
    { date: '2027-01-20', time: null },
    { date: '2027-05-04', time: null },
  ]);
  const life = calls.get('LIFE-2025-SAP-NAT')!;
  assert.deepEqual(life.cutoffs, [{ date: '2025-09-23', time: null }]);
  assert.equal(life.source_status, 'open', 'a stale Open stays the source status; the server recomputes');
  assert.equal(calls.get('HORIZON-CL6-2027-BIODIV-01-02')!.source_status, 'forthcoming');
  assert.equal(calls.get('EU4H-2026-PJ-02')!.source_status, 'closed');
});

test('bulk: a bare array of records is read too; AGRIP-MULTI-2021-IM 2021-05-11T00:00Z is 11 May', () => {
  const { format, calls } = parseEu(
    JSON.stringify([
      { type: 1, identifier: 'AGRIP-MULTI-2021-IM', title: 'Multi programmes', deadlineDatesLong: [1620691200000] },
    ]),
  );
  assert.equal(format, 'grantsTenders');
  assert.deepEqual(calls[0]!.cutoffs, [{ date: '2021-05-11', time: null }]);
});

test('bulk: a bad value is refused naming the record', () => {
  const bad = {
    fundingData: { GrantTenderObj: [{ type: 1, identifier: 'HORIZON-X-1', title: 'T', deadlineDatesLong: ['soon'] }] },
  };
  assert.throws(
    () => parseEu(JSON.stringify(bad)),
    (e: unknown) =>
      e instanceof ImportFormatError &&
      e.message ===
        'fundingData.GrantTenderObj[0] (identifier HORIZON-X-1): deadlineDatesLong[0] is not a date ("soon")',
  );
  const noId = { fundingData: { GrantTenderObj: [{ type: 1, title: 'T' }] } };
  assert.throws(() => parseEu(JSON.stringify(noId)), /fundingData\.GrantTenderObj\[0\]: identifier is missing/);
});

test('SEDIA: one call per identifier, English preferred, else the first hit', () => {
  const { format, calls } = parseEu(read('eu/sedia-search.json'));
  assert.equal(format, 'sedia');
  assert.deepEqual(calls.map((c) => c.source_id).sort(), [
    'CERV-2027-CHILD',
    'DIGITAL-2026-EDIH-AC-08',
    'HORIZON-CL4-2027-DIGITAL-EMERGING-01-12',
    'HORIZON-MSCA-2026-PF-01-01',
  ]);
  const by = byId(calls);
  const a = by.get('HORIZON-CL4-2027-DIGITAL-EMERGING-01-12')!;
  assert.equal(a.language, 'en', 'the English hit wins although the German one comes first');
  assert.equal(a.title, 'Emerging enabling technologies for quantum sensing and neuromorphic computing (RIA)');
  const cerv = by.get('CERV-2027-CHILD')!;
  assert.equal(cerv.language, 'es', 'no English hit: the first one (es, before it)');
  assert.match(cerv.title, /^Protección de los derechos del niño/);
});

test('SEDIA: a multiple cut-off topic keeps every cut-off, ascending, with the stated 17:00', () => {
  const a = byId(parseEu(read('eu/sedia-search.json')).calls).get('HORIZON-CL4-2027-DIGITAL-EMERGING-01-12')!;
  assert.deepEqual(a.cutoffs, [
    { date: '2026-09-15', time: '17:00' }, // …T15:00Z in summer
    { date: '2027-01-20', time: '17:00' }, // …T16:00Z in winter
    { date: '2027-05-04', time: '17:00' },
  ]);
  assert.equal(a.opening_on, '2026-06-16', '2026-06-15T22:00Z is the 16th in Brussels');
  assert.equal(a.budget, 12_000_000);
  assert.equal(a.currency, 'EUR');
  assert.equal(a.programme, null, 'SEDIA carries only an opaque programme id');
});

test('SEDIA: midnight-local means the next Brussels day with no time; UTC midnight plus the 17.00 text', () => {
  const by = byId(parseEu(read('eu/sedia-search.json')).calls);
  assert.deepEqual(by.get('CERV-2027-CHILD')!.cutoffs, [{ date: '2027-03-11', time: null }]);
  assert.equal(by.get('CERV-2027-CHILD')!.source_status, 'forthcoming');
  assert.deepEqual(by.get('DIGITAL-2026-EDIH-AC-08')!.cutoffs, [{ date: '2026-12-31', time: '17:00' }]);
  const msca = by.get('HORIZON-MSCA-2026-PF-01-01')!;
  assert.deepEqual(msca.cutoffs, [{ date: '2026-09-10', time: '17:00' }]);
  assert.equal(msca.source_status, 'open', 'stale open status kept as the source status');
  assert.equal(msca.budget, 312_950_000, 'every action of the budget overview');
});

test('SEDIA: HTML stripped from descriptionByte into summary and body', () => {
  const by = byId(parseEu(read('eu/sedia-search.json')).calls);
  const a = by.get('HORIZON-CL4-2027-DIGITAL-EMERGING-01-12')!;
  assert.doesNotMatch(`${a.summary} ${a.body}`, /[<>]|&amp;/);
  assert.match(a.body!, /medical imaging & navigation/);
  assert.match(a.summary!, /^Expected Outcome: Projects are expected/);
  assert.match(by.get('DIGITAL-2026-EDIH-AC-08')!.summary!, /"test before invest"/);
});

test('brusselsCutoff: the Brussels day of an instant, and a time only when one is meant', () => {
  const cases: Array<[string, string, string | null]> = [
    ['2024-09-16T22:00:00.000+0000', '2024-09-17', null],
    ['2025-01-21T23:00:00.000+0000', '2025-01-22', null],
    ['2026-07-01T15:00:00.000+0000', '2026-07-01', '17:00'],
    ['2026-03-28T16:00:00.000+0000', '2026-03-28', '17:00'], // the day before summer time
    ['2026-03-29T15:00:00.000+0000', '2026-03-29', '17:00'], // the day summer time starts
    ['2026-12-31T00:00:00.000+0000', '2026-12-31', null], // UTC midnight: date-only encoding
    ['2026-12-31T16:00:00Z', '2026-12-31', '17:00'],
    ['2026-12-31T17:00:00+01:00', '2026-12-31', '17:00'],
  ];
  for (const [instant, date, time] of cases)
    assert.deepEqual(brusselsCutoff(instant, 'r', 'f'), { date, time }, instant);
  for (const bad of ['31/12/2026', '2026-12-31', '', 'tomorrow', '2026-02-30T10:00:00Z']) {
    assert.throws(
      () => brusselsCutoff(bad, 'results[0] (identifier X)', 'deadlineDate'),
      /results\[0\] \(identifier X\): deadlineDate is not a date/,
      bad,
    );
  }
});

test('statedTime reads the deadline hour the topic text gives, in English, Spanish or French', () => {
  assert.equal(statedTime(['<p>All deadlines are at 17.00.00 Brussels local time.</p>']), '17:00');
  assert.equal(statedTime([null, 'Deadline: 17:00 (Brussels time)']), '17:00');
  assert.equal(statedTime(['Todos los plazos vencen a las 17.00.00 hora local de Bruselas']), '17:00');
  assert.equal(statedTime(['à 12h00 heure de Bruxelles']), '12:00');
  assert.equal(statedTime(['Brussels, 17 March', 'no time here']), null);
});

test('SEDIA: a malformed topic is refused naming the record', () => {
  assert.throws(
    () => parseEu(read('malformed/eu-sedia-bad-deadline.json')),
    (e: unknown) =>
      e instanceof ImportFormatError &&
      e.record === 'results[1] (identifier HORIZON-MSCA-2026-PF-01-01)' &&
      /deadlineDate is not a date/.test(e.message),
  );
  assert.throws(() => parseEu(JSON.stringify({ results: [{ language: 'en' }] })), /results\[0\]: metadata is missing/);
  assert.throws(
    () => parseEu(JSON.stringify({ results: [{ metadata: { title: ['x'] } }] })),
    /results\[0\]: metadata.identifier is missing/,
  );
});

test('a file in neither format, or not JSON, is a format error', () => {
  for (const text of [
    read('malformed/eu-neither.json'),
    '{"results": 3}',
    '"text"',
    '{not json',
    '[{"metadata":{}}]',
  ]) {
    assert.throws(() => parseEu(text), ImportFormatError, text.slice(0, 30));
  }
});
