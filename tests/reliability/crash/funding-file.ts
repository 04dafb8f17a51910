/**
 * The funding file the crash test imports with the real CLI (`main.ts funding import --source eu`):
 * the EU bulk fixture (fixtures/funding/eu/grantsTenders.json) with its grant records cloned under
 * identifiers unique to one file, so that the file's records can be told apart from every other
 * call in the database (`eu:<identifier>`), and enough of them that the import's one write
 * transaction lasts long enough for a SIGKILL to land inside it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FIXTURE = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'funding', 'eu', 'grantsTenders.json');

export interface FundingFile {
  path: string;
  /** Every identifier of the file's grants: each is stored as the call `eu:<identifier>`. */
  identifiers: string[];
  /** Shared by every identifier of this file, for one SQL LIKE. */
  prefix: string;
}

/** Writes a grantsTenders.json of `copies` × the fixture's grants, identified by `tag`. */
export function writeFundingFile(dir: string, tag: string, copies: number): FundingFile {
  const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as {
    fundingData: { GrantTenderObj: Array<Record<string, unknown>> };
  };
  const grants = fixture.fundingData.GrantTenderObj.filter((r) => String(r.type) !== '0'); // tenders are skipped by the importer
  const prefix = `CRASH-${tag}-`;
  const records: Array<Record<string, unknown>> = [];
  for (let i = 0; i < copies; i++) {
    for (const g of grants)
      records.push({
        ...g,
        identifier: `${prefix}${i}-${String(g.identifier)}`,
        title: `${String(g.title)} (${tag} copy ${i})`,
      });
  }
  const path = join(dir, `grantsTenders-${tag}.json`);
  writeFileSync(path, JSON.stringify({ fundingData: { GrantTenderObj: records } }));
  return { path, identifiers: records.map((r) => String(r.identifier)), prefix };
}
