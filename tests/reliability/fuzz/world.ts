/**
 * What the fuzzer knows about the server it is fuzzing: keys of every kind for each service (made with
 * the same db functions the CLI uses), the real identifiers that make a valid request reach a 2xx
 * (product slugs, call ids, the caller's own task refs and evidence ids, read from the database at the
 * moment a request is built, since tasks come and go), and the clock, moved so that rate limits and
 * daily quotas never stall the run.
 */
import { revokeKey, setSubscription, type Environment } from '../../../db/accounts.ts';
import { credit } from '../../../db/human/ledger.ts';
import { createEndpoint } from '../../../db/webhooks/endpoints.ts';
import { createSavedSearch } from '../../../db/funding/saved-searches.ts';
import { readSavedQuery } from '../../../routes/funding/saved-query.ts';
import { accountWithKey } from '../../helpers/keys.ts';
import type { TestServer } from '../../helpers/server.ts';
import type { Service } from './error-shapes.ts';

/** Where the fuzzed endpoints point: a closed local port, so an attempt fails at once (no DNS, no network). */
export const WEBHOOK_URL = 'https://127.0.0.1:9/hooks';

export interface HumanKey {
  key: string;
  accountId: number;
  environment: Environment;
}

export class World {
  readonly impact: { key: string; revoked: string };
  readonly human: { test: HumanKey; live: HumanKey; broke: HumanKey; readOnly: HumanKey; revoked: string };
  readonly funding: { basic: string; pro: string; revoked: string };
  private readonly fundingAccountId: number;
  private readonly sql;

  constructor(private readonly server: TestServer) {
    const db = server.app.db;
    const now = server.clock.ms;
    const revoked = (service: 'impact' | 'human' | 'funding', extra = {}) => {
      const made = accountWithKey(db, service, now, extra);
      revokeKey(db, made.row.id, now);
      return made.key;
    };
    this.impact = { key: accountWithKey(db, 'impact', now).key, revoked: revoked('impact') };
    const human = (environment: Environment, scopes?: string[], balance = 0): HumanKey => {
      const made = accountWithKey(db, 'human', now, { environment, ...(scopes ? { scopes } : {}) });
      // A live balance large enough for every order of a long run (SPEC "money": integer cents).
      if (balance) db.transaction(() => credit(db, made.account.id, balance, 'contract fuzz top-up', now)).immediate();
      return { key: made.key, accountId: made.account.id, environment };
    };
    this.human = {
      test: human('test'),
      live: human('live', undefined, 50_000_000),
      broke: human('live'),
      readOnly: human('test', ['tasks:read']),
      revoked: revoked('human', { environment: 'test' }),
    };
    // A webhook endpoint for each key that orders, so endpoint and event operations have real ids.
    for (const k of [this.human.test, this.human.live, this.human.readOnly])
      createEndpoint(db, { accountId: k.accountId, environment: k.environment }, { url: WEBHOOK_URL }, now, {
        allowPrivate: true,
      });
    const pro = accountWithKey(db, 'funding', now);
    setSubscription(db, pro.account.id, 'pro', now);
    const basic = accountWithKey(db, 'funding', now);
    this.funding = { basic: basic.key, pro: pro.key, revoked: revoked('funding') };
    // A saved search of the basic key's account, so opening and deleting one have a real id from the start.
    createSavedSearch(db, {
      accountId: basic.account.id,
      name: 'Hidrógeno',
      ...readSavedQuery('q=hidrógeno', now),
      now,
    });
    this.fundingAccountId = basic.account.id;

    const list = (sql: string) => (db.prepare(sql).pluck().all() as Array<string | number>).map(String);
    const statics: Record<string, string[]> = {
      products: list('SELECT slug FROM impact_products ORDER BY slug'),
      productNames: list('SELECT name FROM impact_products ORDER BY slug'),
      categories: list('SELECT DISTINCT category FROM impact_products ORDER BY 1'),
      materials: list('SELECT slug FROM impact_materials ORDER BY slug'),
      conflicts: list('SELECT slug FROM impact_conflicts ORDER BY slug'),
      countries: list('SELECT iso3 FROM impact_countries ORDER BY iso3'),
      channels: [...list('SELECT code FROM impact_channels ORDER BY code'), 'C5', 'c1'],
      runs: list('SELECT id FROM impact_runs ORDER BY id'),
      coicop: list('SELECT code FROM impact_coicop ORDER BY code'),
      calls: list('SELECT id FROM funding_public_calls ORDER BY id'),
      callWords: list(`SELECT title FROM funding_public_calls ORDER BY id`).flatMap((t) =>
        t
          .split(/\s+/)
          .filter((w) => w.length > 3)
          .slice(0, 2),
      ),
      fundingCountries: list('SELECT DISTINCT country FROM funding_public_calls ORDER BY 1'),
      capabilities: list('SELECT id FROM human_capabilities WHERE active = 1 ORDER BY id'),
      // 'capability country city sla' for every priced combination: bodies that can be quoted and ordered.
      offers: list(
        `SELECT capability || ' ' || country_iso || ' ' || city_slug || ' ' || sla FROM human_prices ORDER BY 1`,
      ),
      cities: list(`SELECT country_iso || ' ' || city_slug FROM human_cities ORDER BY 1`),
    };
    this.sql = {
      statics,
      refs: db.prepare('SELECT ref, status FROM human_tasks WHERE account_id = ? AND environment = ? ORDER BY id'),
      otherRefs: db.prepare('SELECT ref FROM human_tasks WHERE account_id <> ? ORDER BY id DESC LIMIT 5').pluck(),
      evidence: db.prepare(`SELECT t.ref, e.id, e.kind FROM human_evidence e JOIN human_tasks t ON t.id = e.task_id
                            WHERE t.account_id = ? AND t.environment = ? ORDER BY e.id DESC LIMIT 200`),
      endpoints: db
        .prepare(
          `SELECT public_id FROM webhook_endpoints WHERE account_id = ? AND environment = ? AND deleted_at IS NULL
           AND disabled_at IS NULL ORDER BY id`,
        )
        .pluck(),
      savedSearches: db
        .prepare('SELECT public_id FROM funding_saved_searches WHERE account_id = ? ORDER BY id')
        .pluck(),
      events: db
        .prepare(
          'SELECT public_id FROM webhook_events WHERE account_id = ? AND environment = ? ORDER BY id DESC LIMIT 50',
        )
        .pluck(),
    };
  }

  now(): number {
    return this.server.clock.ms;
  }

  statics(name: string): string[] {
    return this.sql.statics[name] ?? [];
  }

  /** The caller's own tasks, those in `statuses` first when any are. */
  refs(key: HumanKey, statuses: string[] = []): string[] {
    const rows = this.sql.refs.all(key.accountId, key.environment) as Array<{ ref: string; status: string }>;
    const preferred = rows.filter((r) => statuses.includes(r.status));
    return (preferred.length ? preferred : rows).map((r) => r.ref);
  }

  /** Refs of other accounts' tasks: must be 404 to this caller. */
  foreignRefs(key: HumanKey): string[] {
    return this.sql.otherRefs.all(key.accountId) as string[];
  }

  /** The caller's enabled webhook endpoints (we_…). */
  endpoints(key: HumanKey): string[] {
    return this.sql.endpoints.all(key.accountId, key.environment) as string[];
  }

  /** The saved searches of the basic funding key's account (ss_…). */
  savedSearches(): string[] {
    return this.sql.savedSearches.all(this.fundingAccountId) as string[];
  }

  /** The caller's latest events (evt_…). */
  events(key: HumanKey): string[] {
    return this.sql.events.all(key.accountId, key.environment) as string[];
  }

  /** [ref, evd_id] pairs of the caller's evidence; files (photos, documents) first. */
  evidence(key: HumanKey): Array<[string, string]> {
    const rows = this.sql.evidence.all(key.accountId, key.environment) as Array<{
      ref: string;
      id: number;
      kind: string;
    }>;
    return [...rows.filter((r) => r.kind !== 'note'), ...rows.filter((r) => r.kind === 'note')].map((r) => [
      r.ref,
      `evd_${r.id}`,
    ]);
  }

  /** One scheduler pass after another until nothing is due (what the timer would do, without waiting). */
  async settle(): Promise<void> {
    const scheduler = this.server.app.ctx.human.scheduler;
    while ((await scheduler.tick()) > 0) {
      /* steps falling due one after another */
    }
  }
}

/**
 * Keeps every bucket below its limit by moving the TestClock: on by a whole minute (the per-minute
 * limits are GCRA, refilled in full after a minute, not at a UTC minute's edge) when a service
 * has had ~50 requests since the last move (the smallest per-minute limits are 60: human and funding
 * anonymous), and to the next UTC day when impact's anonymous allowance (100 a day per address) or
 * funding's basic allowance (1,000 a day) is close. Counting is by service and credential kind,
 * deliberately coarse: a 429 is still an acceptable answer, it just should not become the only one.
 */
export class QuotaBudget {
  private minute: Record<Service, number> = { impact: 0, human: 0, funding: 0 };
  private impactAnonymousToday = 0;
  private fundingKeyedToday = 0;
  minuteRolls = 0;
  dayRolls = 0;

  constructor(
    private readonly server: TestServer,
    private readonly world: World,
  ) {}

  note(service: Service, anonymousImpact: boolean, keyedFunding: boolean): void {
    this.minute[service]++;
    if (anonymousImpact) this.impactAnonymousToday++;
    if (keyedFunding) this.fundingKeyedToday++;
  }

  async beforeRequest(service: Service): Promise<void> {
    if (this.impactAnonymousToday >= 90 || this.fundingKeyedToday >= 900) {
      const nextDay = Math.floor(this.server.clock.ms / 86_400_000) * 86_400_000 + 86_400_000;
      this.server.clock.ms = nextDay + 1_000;
      this.impactAnonymousToday = 0;
      this.fundingKeyedToday = 0;
      this.minute = { impact: 0, human: 0, funding: 0 };
      this.dayRolls++;
      await this.world.settle();
    } else if (this.minute[service] >= 50) {
      this.server.clock.ms += 61_000;
      this.minute = { impact: 0, human: 0, funding: 0 };
      this.minuteRolls++;
      await this.world.settle();
    }
  }
}
