/**
 * Operator commands for the human task service (SPEC "CLI"): credit a prepaid balance, verify the
 * people who do the work, resolve disputes; plus loading a catalogue and checking the ledger.
 * Commands that move money commit with synchronous=FULL: what they print has reached the disk.
 */
import { findAccount } from '../db/accounts.ts';
import type { Db } from '../db/connection.ts';
import { CatalogueError, DEMO_CATALOGUE, loadCatalogue } from '../db/human/catalogue.ts';
import { ledgerViolations } from '../db/human/invariants.ts';
import { balanceOf, credit } from '../db/human/ledger.ts';
import { revokeWorker, setDuty, verifyWorker, type Area } from '../db/human/workers.ts';
import { definition } from '../lib/human/capabilities.ts';
import { readHumanConfig } from '../lib/human/config.ts';
import { resolveDispute } from '../db/human/task-actions.ts';
import { DomainError } from '../lib/domain-error.ts';
import { requireString, UsageError, type Command } from './command.ts';

function account(db: Db, email: string) {
  const found = findAccount(db, email);
  if (!found) throw new UsageError(`no account with e-mail ${email}; create it with 'account create --email ${email}'`);
  return found;
}

/** Runs a money-moving write and makes it durable before returning (fsync at commit). */
function durably<T>(db: Db, fn: () => T): T {
  db.pragma('synchronous = FULL');
  try {
    return db.transaction(fn).immediate();
  } finally {
    db.pragma('synchronous = NORMAL');
  }
}

const list = (value: unknown) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

/** --countries FR,ES → whole countries; --cities paris,ES/madrid → those cities (within --countries when given). */
export function areasFrom(db: Db, countriesArg: unknown, citiesArg: unknown): Area[] {
  const countries = list(countriesArg).map((c) => c.toUpperCase());
  for (const c of countries)
    if (!/^[A-Z]{2}$/.test(c)) throw new UsageError(`--countries takes two-letter codes such as FR,ES (got '${c}')`);
  const cities = list(citiesArg);
  if (cities.length === 0) {
    if (countries.length === 0) throw new UsageError('give --countries, --cities or both');
    return countries.map((country_iso) => ({ country_iso, city_slug: '*' }));
  }
  const known = db.prepare('SELECT country_iso, city_slug FROM human_cities').all() as Area[];
  return cities.map((given) => {
    const [country, slug] = given.includes('/')
      ? [given.split('/')[0]!.toUpperCase(), given.split('/')[1]!.toLowerCase()]
      : [null, given.toLowerCase()];
    const matches = known.filter(
      (k) =>
        k.city_slug === slug &&
        (country === null || k.country_iso === country) &&
        (countries.length === 0 || countries.includes(k.country_iso)),
    );
    if (matches.length === 0)
      throw new UsageError(
        `no city '${given}'${countries.length ? ` in ${countries.join(', ')}` : ''} in the catalogue (GET /human/v1/coverage lists them)`,
      );
    if (matches.length > 1)
      throw new UsageError(
        `'${given}' is a city in several countries: write it as ${matches.map((m) => `${m.country_iso}/${m.city_slug}`).join(' or ')}`,
      );
    return matches[0]!;
  });
}

export const humanCommands: Command[] = [
  {
    words: ['balance', 'credit'],
    summary: "Credit an account's prepaid balance for live human tasks (a top-up received outside trio)",
    usage: 'balance credit --account EMAIL --amount CENTS [--memo TEXT]',
    options: { account: { type: 'string' }, amount: { type: 'string' }, memo: { type: 'string' } },
    run(ctx, values) {
      const db = ctx.openDb();
      const amountText = requireString(values, 'amount');
      if (!/^\d{1,9}$/.test(amountText) || Number(amountText) === 0)
        throw new UsageError('--amount is a positive whole number of cents, e.g. 5000 for €50.00');
      const who = account(db, requireString(values, 'account'));
      const memo =
        typeof values.memo === 'string' && values.memo.trim()
          ? values.memo.trim().slice(0, 200)
          : 'top-up by an operator';
      const journal = durably(db, () => credit(db, who.id, Number(amountText), memo, ctx.now()));
      const balance = balanceOf(db, who.id);
      return {
        account: who.email,
        credited_cents: Number(amountText),
        journal: `led_${journal}`,
        available_cents: balance.available_cents,
        held_cents: balance.held_cents,
      };
    },
    text: (r) =>
      `credited ${r.credited_cents} cents to ${r.account}: available ${r.available_cents}, held ${r.held_cents} (${r.journal})`,
  },
  {
    words: ['worker', 'verify'],
    summary:
      'Verify a person to do tasks in countries or cities, for every capability or some (their console shows the tasks offered there; they go on duty there, or --on-duty does it for them), or --revoke',
    usage:
      'worker verify --account EMAIL [--countries FR,ES] [--cities paris,ES/madrid] [--capabilities human.verify,human.photo] [--on-duty | --off-duty] [--note TEXT] [--revoke]',
    options: {
      account: { type: 'string' },
      countries: { type: 'string' },
      cities: { type: 'string' },
      capabilities: { type: 'string' },
      'on-duty': { type: 'boolean' },
      'off-duty': { type: 'boolean' },
      note: { type: 'string' },
      revoke: { type: 'boolean' },
    },
    run(ctx, values) {
      const db = ctx.openDb();
      const who = account(db, requireString(values, 'account'));
      if (values.revoke) {
        const worker = revokeWorker(db, who.id, ctx.now());
        if (!worker) throw new UsageError(`${who.email} was never verified`);
        return { account: who.email, verified: false, revoked_at: new Date(worker.revoked_at!).toISOString() };
      }
      if (values['on-duty'] && values['off-duty']) throw new UsageError('give --on-duty or --off-duty, not both');
      const areas = areasFrom(db, values.countries, values.cities);
      const capabilities = list(values.capabilities);
      for (const c of capabilities)
        if (!definition(c))
          throw new UsageError(`--capabilities takes capability ids such as human.verify (no capability '${c}')`);
      const verified = verifyWorker(
        db,
        who.id,
        areas,
        ctx.now(),
        typeof values.note === 'string' ? values.note : null,
        capabilities.length ? capabilities : null,
      );
      const worker =
        values['on-duty'] || values['off-duty'] ? setDuty(db, who.id, values['on-duty'] === true, null)! : verified;
      return {
        account: who.email,
        verified: true,
        areas: worker.areas.map((a) => (a.city_slug === '*' ? a.country_iso : `${a.country_iso}/${a.city_slug}`)),
        capabilities: worker.capabilities === null ? 'all' : worker.capabilities.split(' '),
        on_duty: worker.on_duty === 1,
      };
    },
    text: (r) =>
      r.verified
        ? `${r.account} is verified for ${(r.areas as string[]).join(', ')} (capabilities: ${r.capabilities === 'all' ? 'all' : (r.capabilities as string[]).join(', ')}); ${r.on_duty ? 'on duty: live orders there are offered to them' : 'off duty: they go on duty in the console (/console/worker) to be offered live orders'}`
        : `${r.account} is no longer verified (${r.revoked_at})`,
  },
  {
    words: ['dispute', 'resolve'],
    summary: 'Decide a disputed task: the answer stands (the hold is paid out) or refund (the hold is released)',
    usage: 'dispute resolve --task REF --outcome stands|refund [--note TEXT]',
    options: { task: { type: 'string' }, outcome: { type: 'string' }, note: { type: 'string' } },
    run(ctx, values) {
      const db = ctx.openDb();
      const outcome = requireString(values, 'outcome');
      if (outcome !== 'stands' && outcome !== 'refund') throw new UsageError('--outcome is stands or refund');
      const ref = requireString(values, 'task');
      const note = typeof values.note === 'string' && values.note.trim() ? values.note.trim().slice(0, 2000) : null;
      try {
        const task = durably(db, () =>
          resolveDispute(db, ref, outcome, note, ctx.now(), readHumanConfig(process.env).sandboxDelayMs),
        );
        return { task: task.ref, status: task.status, resolution: task.resolution, price_cents: task.price_cents };
      } catch (err) {
        if (err instanceof DomainError) throw new UsageError(err.message);
        throw err;
      }
    },
    text: (r) =>
      `${r.task} is ${r.status} (${r.resolution === 'refunded' ? `${r.price_cents} cents released to the client` : 'the hold is paid out'})`,
  },
  {
    words: ['catalogue', 'load'],
    summary: 'Load the human task catalogue (capabilities, cities, prices) from a JSON file; the demo one by default',
    usage: 'catalogue load [--file FILE]',
    options: { file: { type: 'string' } },
    run(ctx, values) {
      try {
        return {
          ...loadCatalogue(ctx.openDb(), typeof values.file === 'string' ? values.file : DEMO_CATALOGUE, ctx.now()),
        };
      } catch (err) {
        if (err instanceof CatalogueError) throw new UsageError(err.message);
        throw err;
      }
    },
  },
  {
    words: ['ledger', 'check'],
    summary: "Check the human ledger's invariants (balanced journals, holds, balances); exit 1 on a violation",
    usage: 'ledger check',
    options: {},
    run(ctx) {
      const violations = ledgerViolations(ctx.openDb());
      if (violations.length) throw new Error(`${violations.length} violation(s):\n${violations.join('\n')}`);
      return { ok: true, violations: [] };
    },
    text: () => 'the ledger is sound',
  },
];
