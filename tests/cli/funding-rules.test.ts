/** `funding reapply-rules` as operators run it: a child process against a temp database. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../db/connection.ts';
import { cliOnTempDatabase, ROOT } from '../helpers/cli.ts';

// Real spawns of main.ts for the import and the words; the --json run and the refusal through the same
// dispatch in-process (tests/helpers/cli.ts).
const { cli, cliInProcess, databasePath } = cliOnTempDatabase('trio-cli-rules-');

test('funding reapply-rules withholds a stored person grant and says so, in JSON and in words', async () => {
  const imported = await cli(
    'funding',
    'import',
    '--source',
    'bdns',
    join(ROOT, 'fixtures', 'funding', 'bdns', 'convocatorias-busqueda-pagina-2.json'),
    '--json',
  );
  assert.equal(imported.code, 0, imported.stderr);
  assert.equal(JSON.parse(imported.stdout).withheld, 2);
  // As an older trio stored it: the list-page person grant served.
  const db = openDatabase(databasePath);
  db.prepare("UPDATE funding_calls SET personal_data = 0 WHERE id = 'bdns:917302'").run();
  db.close();

  const res = await cliInProcess('funding', 'reapply-rules', '--json');
  assert.equal(res.code, 0, res.stderr);
  const out = JSON.parse(res.stdout);
  assert.deepEqual([out.calls, out.withheld, out.released, out.withheld_ids], [6, 1, 0, ['bdns:917302']]);

  const words = await cli('funding', 'reapply-rules');
  assert.equal(words.code, 0);
  assert.match(words.stdout, /^6 calls checked\nwithheld 0 \(personal data\)\nreleased 0\n/);

  const extra = await cliInProcess('funding', 'reapply-rules', 'now');
  assert.equal(extra.code, 2);
  assert.match(extra.stderr, /expected no arguments/);
});
