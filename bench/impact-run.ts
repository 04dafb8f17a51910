/**
 * `npm run bench -- impact-run [--draws N] [--products 500,2000] [--materials M] [--scenarios 1,5] [--register published|demo]`
 *
 * The whole `impact run` pipeline (compute, reproducibility sample, seven gates, store in SQLite) on
 * a synthetic catalogue (bench/impact-run-catalogue.ts, 200 materials) over the published register's
 * harm, conflicts and input-output table (the demo register's with `--register demo`), for each catalogue size and
 * number of scenarios, at 1,000 draws by default. Each configuration runs in its own child process so
 * that its peak memory (maxRSS) is its own. Prints a table and the BENCHMARKS.md section text.
 *
 * Target (issue 6, memory tightened by issue 33): 2,000 products × 5 scenarios × 1,000 draws in under 5 minutes and 800 MB on this
 * two-core machine, the cost growing linearly in products × draws.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../db/connection.ts';
import { loadImpactRegister, REGISTERS, type RegisterKind } from '../db/impact/load.ts';
import { readRegister } from '../db/impact/register.ts';
import { runImpact } from '../db/impact/run.ts';
import { migrate } from '../db/migrate.ts';
import { syntheticCatalogue } from './impact-run-catalogue.ts';

const SCENARIOS = ['S-MAX', 'S-EVID', 'S-RES', 'S-ARMS', 'S-CONS'];
const TARGET_S = 300;
const TARGET_MB = 800;

interface Measurement {
  register: RegisterKind;
  products: number;
  materials: number;
  scenarios: number;
  draws: number;
  seconds: number;
  peakMb: number;
  dbMb: number;
  failed: string[];
}

function list(args: string[], name: string, fallback: number[]): number[] {
  const at = args.indexOf(name);
  if (at === -1) return fallback;
  const values = (args[at + 1] ?? '').split(',').map(Number);
  if (values.some((v) => !Number.isInteger(v) || v <= 0))
    throw new Error(`${name} needs positive integers, comma-separated`);
  return values;
}

/** One configuration, in this (child) process. */
async function measureHere(
  register: RegisterKind,
  products: number,
  materials: number,
  scenarios: number,
  draws: number,
): Promise<Measurement> {
  const dir = mkdtempSync(join(tmpdir(), 'trio-bench-impact-'));
  try {
    const db = openDatabase(join(dir, 'bench.sqlite'));
    migrate(db);
    loadImpactRegister(db, Date.now(), { register });
    const catalogue = syntheticCatalogue(readRegister(db), materials, products);
    const t0 = performance.now();
    const runs = runImpact(db, {
      register: catalogue,
      scenarios: SCENARIOS.slice(0, scenarios),
      draws,
      seed: 1,
      now: Date.now,
    });
    const seconds = (performance.now() - t0) / 1000;
    const dbMb =
      ((db.prepare('PRAGMA page_count').pluck().get() as number) *
        (db.prepare('PRAGMA page_size').pluck().get() as number)) /
      1e6;
    db.close();
    return {
      register,
      products,
      materials,
      scenarios,
      draws,
      seconds,
      peakMb: process.resourceUsage().maxRSS / 1024,
      dbMb,
      failed: runs.flatMap((r) => r.failed_gates.map((g) => `${r.scenario}:${g}`)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measureInChild(
  register: RegisterKind,
  products: number,
  materials: number,
  scenarios: number,
  draws: number,
): Promise<Measurement> {
  const child = fork(
    import.meta.filename,
    ['--child', register, String(products), String(materials), String(scenarios), String(draws)],
    { execArgv: ['--import', 'tsx'] },
  );
  let result: Measurement | undefined;
  child.on('message', (m) => (result = m as Measurement));
  const [code] = await once(child, 'exit');
  if (code !== 0 || !result) throw new Error(`benchmark child exited with ${code}`);
  return result;
}

export async function run(args: string[]): Promise<void> {
  const draws = list(args, '--draws', [1000])[0]!;
  const materials = list(args, '--materials', [200])[0]!;
  const sizes = list(args, '--products', [500, 2000]);
  const scenarioCounts = list(args, '--scenarios', [1, 5]);
  const at = args.indexOf('--register');
  const register = (at === -1 ? 'published' : args[at + 1]) as RegisterKind;
  if (!REGISTERS.includes(register)) throw new Error(`--register is one of ${REGISTERS.join(', ')}`);
  console.log(
    `impact-run: ${register} register, ${materials} materials, ${draws} draws; ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), node ${process.versions.node}`,
  );
  const rows: Measurement[] = [];
  for (const products of sizes) {
    for (const scenarios of scenarioCounts) {
      const m = await measureInChild(register, products, materials, scenarios, draws);
      rows.push(m);
      console.log(
        `  ${products} products × ${scenarios} scenario(s): ${m.seconds.toFixed(1)} s, peak ${m.peakMb.toFixed(0)} MB, database ${m.dbMb.toFixed(0)} MB${m.failed.length ? `, FAILED ${m.failed.join(' ')}` : ''}`,
      );
    }
  }
  const per = rows.map((r) => (r.seconds * 1000) / (r.products * r.scenarios * (r.draws / 1000)));
  console.log('\n' + section(rows, per, draws));
}

function section(rows: Measurement[], per: number[], draws: number): string {
  const big = rows.find((r) => r.products === 2000 && r.scenarios === 5);
  const verdict = big
    ? `2,000 products × 5 scenarios × ${draws} draws: ${big.seconds.toFixed(0)} s (target < ${TARGET_S} s) and ${big.peakMb.toFixed(0)} MB peak (target < ${TARGET_MB} MB): ${big.seconds < TARGET_S && big.peakMb < TARGET_MB ? 'met' : 'NOT met'}.`
    : '';
  return [
    '## impact-run',
    '',
    `\`npm run bench -- impact-run\`: the whole \`impact run\` pipeline (compute, reproducibility sample, seven gates, one SQLite transaction per run) on a synthetic catalogue of 200 materials over the ${rows[0]?.register ?? 'published'} register, ${draws} draws, each configuration in its own process.`,
    '',
    '| products | scenarios | time (s) | peak RSS (MB) | database (MB) | ms per product × scenario × 1,000 draws |',
    '|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r, i) =>
        `| ${r.products} | ${r.scenarios} | ${r.seconds.toFixed(1)} | ${r.peakMb.toFixed(0)} | ${r.dbMb.toFixed(0)} | ${per[i]!.toFixed(1)} |`,
    ),
    '',
    verdict,
  ].join('\n');
}

if (process.argv[2] === '--child') {
  const register = process.argv[3] as RegisterKind;
  const [products, materials, scenarios, draws] = process.argv.slice(4).map(Number) as [number, number, number, number];
  const m = await measureHere(register, products, materials, scenarios, draws);
  process.send!(m);
}
