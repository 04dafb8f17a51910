/**
 * CORDIS project exports (cordis-HORIZONprojects-csv.zip, unzipped) → ProjectRecord[]. CORDIS
 * holds funded projects, not calls: each project names the SEDIA topic it was funded under
 * (`topics`), which is how "projects funded under this call" joins to EU calls.
 *
 * Input: project.csv, and optionally organization.csv from the same export to name each project's
 * coordinator (role `coordinator`). Without organization.csv, `coordinatorsKnown` is false and the
 * store leaves any coordinator it already has alone.
 *
 * Natural-person coordinators (rule): a coordinator is treated as a natural person, and its name and
 * country are withheld (coordinator null), when
 *  1. its vatNumber is a Spanish tax id (bare or ES-prefixed) that personal-data.ts classifies as
 *     natural (DNI, NIE, K/L/M, E…, or unrecognised); or
 *  2. it has no usable vatNumber, its activityType is not an institution type (HES higher
 *     education, REC research, PUB public body) and its name has a personal-name shape: two to five
 *     alphabetic words with no organisational word (university, foundation, GmbH, S.L., …).
 * Other EU VAT numbers identify VAT-registered organisations and are kept. The PROJECT is flagged
 * personal_data only when it is itself about a person: a natural-person tax id in its title or
 * objective. Coordinators withheld are counted, never stored.
 */
import { parseCsv, type CsvRow } from './csv.ts';
import { classifyTaxId, findPersonalId, normaliseTaxId } from './personal-data.ts';
import { amount, dayField, text } from './parse-util.ts';
import { ImportFormatError, type ProjectRecord } from './records.ts';

export interface CordisInput {
  project: string;
  organization?: string | null;
}
export interface CordisParse {
  projects: ProjectRecord[];
  coordinatorsKnown: boolean;
  coordinatorsWithheld: number;
}

const PROJECT_URL = 'https://cordis.europa.eu/project/id/';

interface Table {
  file: string;
  rows: CsvRow[];
  col: (row: CsvRow, name: string) => string | null;
}

function table(file: string, csv: string, required: string[]): Table {
  const [header, ...rows] = parseCsv(csv);
  if (!header) throw new ImportFormatError(file, 'the file is empty');
  const names = header.fields.map((f) => f.trim());
  const missing = required.filter((r) => !names.includes(r));
  if (missing.length > 0) throw new ImportFormatError(`${file} header`, `missing column ${missing.join(', ')}`);
  const index = new Map(names.map((n, i) => [n, i]));
  for (const row of rows) {
    if (row.fields.length !== names.length) {
      throw new ImportFormatError(
        `${file} line ${row.line} (id ${text(row.fields[0]) ?? '?'})`,
        `has ${row.fields.length} fields, the header has ${names.length} (a quote or separator out of place)`,
      );
    }
  }
  return { file, rows, col: (row, name) => text(row.fields[index.get(name) ?? -1] ?? null) };
}

const NO_VAT = /^(?:|MISSING|NOTAPPLICABLE|N\/?A|NONE|-)$/i;
const SPANISH_ID = /^(?:ES)?[0-9A-Z]\d{7}[0-9A-Z]$/;
const INSTITUTION_TYPES = new Set(['HES', 'REC', 'PUB']);
const ORG_WORD = new RegExp(
  '(?<![\\p{L}\\p{N}])(?:univ\\p{L}*|institut\\p{L}*|instituto|centre|center|centro|centrum|found\\p{L}*|fundaci\\p{L}*|stiftung|stichting|' +
    'associa\\p{L}*|asociaci\\p{L}*|verein|society|sociedad|company|compan\\p{L}*|group|grupo|consorti\\p{L}*|council|' +
    'ministr\\p{L}*|agenc\\p{L}*|hospital|school|college|academ\\p{L}*|lab|labs|laborator\\p{L}*|network|cooperati\\p{L}*|ayuntamiento|' +
    'municipal\\p{L}*|city|region\\p{L}*|gemeinde|commune|ltd|limited|gmbh|ag|sa|sl|slu|sas|sarl|srl|spa|bv|nv|ab|oy|' +
    'as|aps|plc|inc|llc|kft|sro|ev|doo|ug|kg|se|oü|zrt|ehf|s\\.?l\\.?|s\\.?a\\.?|e\\.?v\\.?)(?![\\p{L}\\p{N}])',
  'iu',
); // letter-aware word edges: "Seán" is not "SE"

/** Rule above: is this coordinator a natural person? */
export function coordinatorIsPerson(vat: string | null, activityType: string | null, name: string | null): boolean {
  const v = normaliseTaxId(vat ?? '');
  if (!NO_VAT.test(v))
    return SPANISH_ID.test((vat ?? '').toUpperCase().replace(/[\s.\-/]/g, '')) && classifyTaxId(v) === 'natural';
  if (activityType && INSTITUTION_TYPES.has(activityType.toUpperCase())) return false;
  if (!name) return false;
  const words = name.split(/\s+/);
  return (
    words.length >= 2 &&
    words.length <= 5 &&
    words.every((w) => /^[\p{L}][\p{L}'’.-]*$/u.test(w)) &&
    !ORG_WORD.test(name)
  );
}

interface Coordinator {
  name: string | null;
  country: string | null;
}

function coordinators(csv: string): { byProject: Map<string, Coordinator>; withheld: number } {
  const t = table('organization.csv', csv, ['projectID', 'name', 'role']);
  const byProject = new Map<string, Coordinator>();
  let withheld = 0;
  for (const row of t.rows) {
    const project = t.col(row, 'projectID');
    if (!project || t.col(row, 'role')?.toLowerCase() !== 'coordinator' || byProject.has(project)) continue;
    const name = t.col(row, 'name');
    if (coordinatorIsPerson(t.col(row, 'vatNumber'), t.col(row, 'activityType'), name)) {
      byProject.set(project, { name: null, country: null });
      withheld++;
    } else {
      byProject.set(project, { name, country: t.col(row, 'country') });
    }
  }
  return { byProject, withheld };
}

export function parseCordis(input: CordisInput): CordisParse {
  const t = table('project.csv', input.project, ['id', 'title', 'topics']);
  const coord = input.organization ? coordinators(input.organization) : null;
  const projects: ProjectRecord[] = [];
  const seen = new Set<string>();
  for (const row of t.rows) {
    const id = t.col(row, 'id');
    const record = `project.csv line ${row.line} (id ${id ?? '?'})`;
    if (!id || !/^\d+$/.test(id)) throw new ImportFormatError(record, 'id is not a CORDIS project number');
    if (seen.has(id)) continue;
    seen.add(id);
    const title = t.col(row, 'title');
    const topic = t.col(row, 'topics');
    if (!title) throw new ImportFormatError(record, 'title is empty');
    if (!topic) throw new ImportFormatError(record, 'topics is empty');
    const c = coord?.byProject.get(id);
    projects.push({
      source_id: id,
      acronym: t.col(row, 'acronym'),
      title,
      topic,
      status: t.col(row, 'status'),
      start_date: dayField(t.col(row, 'startDate'), record, 'startDate'),
      end_date: dayField(t.col(row, 'endDate'), record, 'endDate'),
      total_cost: amount(t.col(row, 'totalCost'), record, 'totalCost'),
      ec_contribution: amount(t.col(row, 'ecMaxContribution'), record, 'ecMaxContribution'),
      framework: t.col(row, 'frameworkProgramme'),
      coordinator: c?.name ?? null,
      coordinator_country: c?.country ?? null,
      url: PROJECT_URL + id,
      personal_data: findPersonalId(title) !== null || findPersonalId(t.col(row, 'objective')) !== null,
    });
  }
  return { projects, coordinatorsKnown: coord !== null, coordinatorsWithheld: coord?.withheld ?? 0 };
}
