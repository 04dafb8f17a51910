/**
 * `impact data build` as operators run it (issue 24): `tsx main.ts …` in a child process against a temp
 * database. It builds the published register from data/impact/, prints every file's reconciliation,
 * loads it (once: the same files are "unchanged" the second time), and loads the demo register only
 * when asked; bad options are usage errors, a missing GED file an error naming it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../../db/connection.ts';
import { buildRegister } from '../../db/impact/load.ts';
import { cliOnTempDatabase } from '../helpers/cli.ts';

// Real spawns of main.ts for the first build of each kind and an exit code of each kind; the repeats
// and the other refusals through the same dispatch in-process (tests/helpers/cli.ts).
const { cli, cliInProcess, databasePath } = cliOnTempDatabase('trio-cli-impact-data-');

test('--dry-run reports the register hash and each file reconciled, and loads nothing', async () => {
  const res = await cli('impact', 'data', 'build', '--dry-run', '--json');
  assert.equal(res.code, 0, res.stderr);
  const out = JSON.parse(res.stdout);
  assert.deepEqual([out.register, out.data_version, out.loaded], ['published', 'published-2026.5', false]);
  assert.equal(out.register_sha256, buildRegister('published').sha256, 'the hash the build gives in process');
  const tidy = out.reconciliation.find((r: { file: string }) => r.file.endsWith('mcs2024_world_tidy.csv'));
  assert.deepEqual(
    [tidy.rows, tidy.imported, tidy.unknown, tidy.checked, tidy.skipped],
    // published-2026.4: two rows (DR Congo's niobium, Mozambique's diatomite) read for other output
    [3477, 572, 8, 2, { out_of_scope: 2857, residual: 38 }],
  );
  assert.equal(out.counts.impact_products, 48);

  const text = await cliInProcess('impact', 'data', 'build', '--dry-run');
  assert.equal(text.code, 0, text.stderr);
  assert.match(
    text.stdout,
    /^published register published-2026\.5, hash [0-9a-f]{64}: built, not loaded \(--dry-run\)\n/,
  );
  assert.match(
    text.stdout,
    /\n {2}data\/impact\/usgs-mcs-2024-world\/mcs2024_world_tidy\.csv: 3477 rows; 572 imported; 8 unknown \(withheld or not available\); 2 checked; skipped: 2857 out of scope, 38 residual\n/,
  );
  assert.match(
    text.stdout,
    /worldbank-income-groups-fy2025\/wb_country_class_fy2025\.csv: 218 rows; 215 imported; 1 unknown \(withheld or not available\); skipped: 2 unmapped code \(2 notes\)/,
  );
});

test('a build loads the published register once; the demo register only when asked', async () => {
  const first = await cli('impact', 'data', 'build', '--json');
  assert.equal(first.code, 0, first.stderr);
  assert.equal(JSON.parse(first.stdout).loaded, true);
  const meta = () => {
    const db = openDatabase(databasePath, { readonly: true });
    try {
      return Object.fromEntries(
        (db.prepare('SELECT key, value FROM impact_register_meta').all() as Array<{ key: string; value: string }>).map(
          (r) => [r.key, r.value],
        ),
      );
    } finally {
      db.close();
    }
  };
  assert.equal(meta().register, 'published');
  const again = await cliInProcess('impact', 'data', 'build');
  assert.match(again.stdout, /: already loaded \(unchanged\)\n/);

  const demo = await cliInProcess('impact', 'data', 'build', '--register', 'demo');
  assert.equal(demo.code, 0, demo.stderr);
  assert.match(demo.stdout, /^demo register demo-\S+, hash [0-9a-f]{64}: loaded\n/);
  assert.equal(meta().register, 'demo');
});

test('bad options are usage errors; a missing GED file is named', async () => {
  const cases: Array<[string[], RegExp]> = [
    [['impact', 'data', 'build', '--register', 'mine'], /--register is one of published, demo/],
    [
      ['impact', 'data', 'build', '--register', 'demo', '--ged', 'x.csv'],
      /--ged FILE takes a UCDP GED CSV file, for the published register/,
    ],
  ];
  for (const [args, message] of cases) {
    const res = await (args === cases[0]![0] ? cli : cliInProcess)(...args);
    assert.equal(res.code, 2, args.join(' '));
    assert.match(res.stderr, message);
  }
  const missing = await cli('impact', 'data', 'build', '--ged', 'no-such-ged.csv', '--dry-run');
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /no-such-ged\.csv: no such GED file \(--ged\)/);
});
