/**
 * `impact run`, `impact publish` and `demo [--no-publish]` as operators run them: `tsx main.ts …` in a
 * child process against a temp database.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../../db/connection.ts';
import { cliOnTempDatabase } from '../helpers/cli.ts';

// Real spawns of main.ts for the overview, the loads and runs, and an exit code of each kind; the
// --help texts and the other refusals through the same dispatch in-process (tests/helpers/cli.ts).
const { cli, cliInProcess, databasePath } = cliOnTempDatabase('trio-cli-impact-');

test('impact commands have --help and are in the overview', async () => {
  const overview = await cli();
  assert.match(overview.stdout, /impact run \[--scenario/);
  assert.match(overview.stdout, /demo \[--no-publish\]/);
  for (const words of ['impact run', 'impact publish', 'demo']) {
    const help = await cliInProcess(...words.split(' '), '--help');
    assert.equal(help.code, 0, words);
    assert.match(help.stdout, /usage: main.ts/);
    assert.match(help.stdout, /--json/);
  }
});

test('demo --no-publish loads the register only; impact run computes, --publish publishes', async () => {
  const loaded = await cli('demo', '--no-publish', '--json');
  assert.equal(loaded.code, 0, loaded.stderr);
  const db = () => openDatabase(databasePath, { readonly: true });
  let d = db();
  assert.equal(d.prepare('SELECT count(*) FROM impact_products').pluck().get(), 48);
  assert.equal(d.prepare('SELECT count(*) FROM impact_runs').pluck().get(), 0, 'figures withheld: no run');
  d.close();

  const res = await cli('impact', 'run', '--scenario', 'S-RES', '--draws', '60', '--seed', '5', '--json');
  assert.equal(res.code, 0, res.stderr);
  const out = JSON.parse(res.stdout);
  assert.equal(out.ok, true);
  assert.deepEqual(
    out.runs.map((r: Record<string, unknown>) => [r.scenario, r.status, r.published, r.draws, r.seed]),
    [['S-RES', 'validated', false, 60, 5]],
  );

  const text = await cliInProcess('impact', 'run', '--scenario', 'S-RES', '--draws', '60', '--publish');
  assert.equal(text.code, 0, text.stderr);
  assert.match(
    text.stdout.trim(),
    /^S-RES run 2 validated and published: 48 products, 60 draws, seed 20260101, [\d.]+ s$/,
    'one summary line per run',
  );

  const published = await cliInProcess('impact', 'publish', String(out.runs[0].id));
  assert.match(published.stdout, /run 1 is now the current S-RES run \(was run 2\)/);
  d = db();
  assert.equal(d.prepare("SELECT run_id FROM impact_current_runs WHERE scenario = 'S-RES'").pluck().get(), 1);
  d.close();
});

test('bad options are usage errors', async () => {
  const cases: Array<[string[], RegExp]> = [
    [['impact', 'run', '--scenario', 'S-NOPE'], /--scenario is one of S-MAX, S-EVID, S-RES, S-ARMS, S-CONS/],
    [['impact', 'run', '--draws', '1'], /--draws is an integer from 2 to 100000/],
    [['impact', 'run', '--seed', '-3'], /--seed|argument/],
    [['impact', 'publish', 'x'], /RUN_ID is a run id/],
  ];
  for (const [args, message] of cases) {
    const res = await (args === cases[0]![0] ? cli : cliInProcess)(...args);
    assert.equal(res.code, 2, args.join(' '));
    assert.match(res.stderr, message);
  }
  const missing = await cli('impact', 'publish', '999', '--json');
  assert.equal(missing.code, 1);
  assert.match(JSON.parse(missing.stdout).error, /no run 999/);
});
