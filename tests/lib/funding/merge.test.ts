import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalJson, deriveDates, mergeCall, mergeProject } from '../../../lib/funding/merge.ts';
import type { CallRecord, ProjectRecord } from '../../../lib/funding/records.ts';

const call = (over: Partial<CallRecord> = {}): CallRecord => ({
  source: 'bdns',
  source_id: '912345',
  title: 'Ayudas',
  summary: 'Finalidad',
  body: 'Texto largo de la convocatoria',
  funder: 'AEI',
  programme: null,
  country: 'ES',
  region: 'ES - ESPAÑA',
  url: 'https://x',
  published_on: '2026-11-03',
  opening_on: '2026-11-04',
  cutoffs: [{ date: '2027-01-15', time: null }],
  deadline_text: null,
  opening_text: null,
  publications: [],
  time_zone: 'Europe/Madrid',
  budget: 85_000_000,
  award_ceiling: null,
  currency: 'EUR',
  applicant_terms: ['GRAN EMPRESA'],
  language: 'es',
  source_status: 'open',
  bdns_id: '912345',
  personal_data: false,
  ...over,
});
const project = (over: Partial<ProjectRecord> = {}): ProjectRecord => ({
  source_id: '1',
  acronym: 'A',
  title: 'T',
  topic: 'X',
  status: 'SIGNED',
  start_date: '2026-01-01',
  end_date: null,
  total_cost: 1,
  ec_contribution: 1,
  framework: 'HORIZON',
  coordinator: 'ACME SA',
  coordinator_country: 'ES',
  url: 'u',
  personal_data: false,
  ...over,
});

test('mergeCall is the identity when a record meets itself', () => {
  assert.deepEqual(mergeCall(call(), call()), call());
});

test('mergeCall: a list item (nulls, no cut-offs) never wipes what a detail read filled', () => {
  const listItem = call({
    summary: null,
    body: null,
    region: null,
    opening_on: null,
    cutoffs: [],
    budget: null,
    currency: null,
    source_status: null,
  });
  assert.deepEqual(mergeCall(call(), listItem), call());
});

test('mergeCall: a period block missing keeps both cut-offs and words; new words keep the date', () => {
  const words = call({ cutoffs: [], deadline_text: '15 días hábiles' });
  assert.deepEqual(mergeCall(words, call({ cutoffs: [], deadline_text: null })).deadline_text, '15 días hábiles');
  const merged = mergeCall(call(), call({ cutoffs: [], deadline_text: '10 días hábiles' }));
  assert.deepEqual([merged.cutoffs, merged.deadline_text], [[{ date: '2027-01-15', time: null }], '10 días hábiles']);
  const dated = mergeCall(words, call({ cutoffs: [{ date: '2027-02-01', time: null }], deadline_text: null }));
  assert.deepEqual(
    [dated.cutoffs, dated.deadline_text],
    [[{ date: '2027-02-01', time: null }], null],
    'a date from the source replaces the words',
  );
});

test('mergeCall: new cut-offs replace old ones but keep a time stated for the same day', () => {
  const stored = call({
    cutoffs: [
      { date: '2026-09-15', time: '17:00' },
      { date: '2027-01-20', time: '17:00' },
    ],
  });
  const dateOnly = call({
    cutoffs: [
      { date: '2027-01-20', time: null },
      { date: '2027-05-04', time: null },
    ],
  });
  assert.deepEqual(mergeCall(stored, dateOnly).cutoffs, [
    { date: '2027-01-20', time: '17:00' },
    { date: '2027-05-04', time: null },
  ]);
  const restated = call({ cutoffs: [{ date: '2027-01-20', time: '12:00' }] });
  assert.deepEqual(mergeCall(stored, restated).cutoffs, [{ date: '2027-01-20', time: '12:00' }], 'a stated time wins');
});

test('mergeCall: a poorer text contained in the stored one keeps the stored; a different one replaces it', () => {
  assert.equal(mergeCall(call(), call({ body: 'Texto largo' })).body, 'Texto largo de la convocatoria');
  assert.equal(mergeCall(call(), call({ body: 'Otro texto' })).body, 'Otro texto');
  assert.equal(mergeCall(call(), call({ title: 'Nuevo título' })).title, 'Nuevo título');
});

test('mergeCall: personal data is sticky', () => {
  assert.equal(mergeCall(call({ personal_data: true }), call()).personal_data, true);
  assert.equal(mergeCall(call(), call({ personal_data: true })).personal_data, true);
});

test('mergeProject: coordinators replaced only when organization.csv was read', () => {
  const withheld = project({ coordinator: null, coordinator_country: null });
  assert.deepEqual(mergeProject(project(), withheld, true), withheld, 'known: a withheld coordinator erases the name');
  assert.deepEqual(mergeProject(project(), withheld, false), project(), 'unknown: the stored name stays');
  assert.equal(mergeProject(project(), project({ end_date: null, status: 'CLOSED' }), true).status, 'CLOSED');
});

test('canonicalJson sorts object keys at every depth, keeps array order', () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [2, 1], c: null } }), canonicalJson({ a: { c: null, d: [2, 1] }, b: 1 }));
  assert.notEqual(canonicalJson({ a: [1, 2] }), canonicalJson({ a: [2, 1] }));
});

test('deriveDates: the next cut-off still open, else the last; closes_at is the last cut-off', () => {
  const c = {
    time_zone: 'Europe/Brussels' as const,
    opening_on: '2026-06-16',
    cutoffs: [
      { date: '2026-09-15', time: '17:00' },
      { date: '2027-01-20', time: '17:00' },
      { date: '2027-05-04', time: null },
    ],
  };
  const cases: Array<[string, string, string | null]> = [
    ['2026-11-22T10:00:00Z', '2027-01-20', '17:00'],
    ['2027-01-20T15:59:00Z', '2027-01-20', '17:00'],
    ['2027-01-20T16:00:00Z', '2027-05-04', null], // 17:00 CET has passed
    ['2027-05-04T21:59:00Z', '2027-05-04', null], // still the deadline day in Brussels
    ['2027-06-01T00:00:00Z', '2027-05-04', null], // all past: the last one
    ['2026-01-01T00:00:00Z', '2026-09-15', '17:00'],
  ];
  for (const [now, deadline, time] of cases) {
    const d = deriveDates(c, Date.parse(now));
    assert.deepEqual([d.deadline, d.deadline_time], [deadline, time], now);
    assert.equal(d.closes_at, Date.parse('2027-05-04T22:00:00Z'));
    assert.equal(d.opens_at, Date.parse('2026-06-15T22:00:00Z'));
  }
  assert.deepEqual(deriveDates({ time_zone: 'Europe/Madrid', opening_on: null, cutoffs: [] }, 0), {
    deadline: null,
    deadline_time: null,
    opens_at: null,
    closes_at: null,
  });
});
