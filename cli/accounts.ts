/** Operator commands for accounts, keys and subscriptions (SPEC "Accounts and the console"). */
import {
  AccountError,
  createAccount,
  createKey,
  findAccount,
  listKeys,
  revokeKey,
  rotateKey,
  setSubscription,
  type Environment,
  type KeyRow,
  type Service,
} from '../db/accounts.ts';
import type { Db } from '../db/connection.ts';
import { issueLink, LINK_PATH } from '../db/password-links.ts';
import { stripeSubscriptionOf } from '../db/billing/store.ts';
import { LIVE_STATUSES } from '../db/billing/effects.ts';
import { requireString, UsageError, type CliContext, type Command, type Values } from './command.ts';

const SERVICES = ['impact', 'human', 'funding'];
const DAY_MS = 86_400_000;

function accountByEmail(db: Db, email: string) {
  const account = findAccount(db, email);
  if (!account)
    throw new AccountError(`no account with e-mail ${email}; create it with 'account create --email ${email}'`);
  return account;
}

function keyId(raw: string | undefined): number {
  const id = Number(raw);
  if (!Number.isInteger(id) || id < 1) throw new UsageError('give the key id (a whole number, as `key list` shows it)');
  return id;
}

const publicKey = (row: KeyRow) => ({
  id: row.id,
  service: row.service,
  environment: row.environment,
  name: row.name,
  display_prefix: row.display_prefix,
  scopes: row.scopes ? row.scopes.split(' ') : [],
  created_at: iso(row.created_at),
  last_used_at: iso(row.last_used_at),
  revoked_at: iso(row.revoked_at),
  expires_at: iso(row.expires_at),
  rotated_from: row.rotated_from,
});
/** The account's Stripe subscription when it is still live in Stripe (as its last event said). */
function liveStripeSubscription(db: Db, accountId: number) {
  const sub = stripeSubscriptionOf(db, accountId);
  return sub && LIVE_STATUSES.has(sub.status) ? sub : null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** '0', '90m', '24h', '7d' → milliseconds; at most 7 days (a rotation's grace period). */
export function parseGrace(value: string): number {
  const m = /^(\d+)([mhd]?)$/.exec(value);
  if (!m) throw new UsageError(`--expire-old-in takes a duration such as 0, 90m, 24h or 7d (got '${value}')`);
  const ms = Number(m[1]) * { '': 1000, m: 60_000, h: 3_600_000, d: DAY_MS }[m[2] as '' | 'm' | 'h' | 'd'];
  if (ms > 7 * DAY_MS) throw new UsageError('--expire-old-in is at most 7d');
  return ms;
}

/**
 * A one-time link to set or reset the account's password, on the console of this server: `--base-url`
 * (the address people reach it at, behind a proxy), else http://HOST:PORT from the settings.
 */
function baseUrl(ctx: CliContext, values: Values): string {
  const base =
    typeof values['base-url'] === 'string'
      ? values['base-url'].replace(/\/+$/, '')
      : `http://${ctx.config.host.includes(':') ? `[${ctx.config.host}]` : ctx.config.host}:${ctx.config.port}`;
  if (!/^https?:\/\/[^\s/]+$/.test(base))
    throw new UsageError("--base-url is the console's address, e.g. https://trio.example.org");
  return base;
}

function passwordLink(ctx: CliContext, base: string, accountId: number) {
  const link = issueLink(ctx.openDb(), accountId, ctx.now());
  return {
    password_link: `${base}${LINK_PATH}${link.token}`,
    password_link_purpose: link.purpose,
    password_link_expires_at: iso(link.expiresAt),
  };
}

const linkText = (r: Record<string, unknown>) =>
  `${r.password_link}\n\nSend this link to the person: it lets them ${r.password_link_purpose === 'set' ? 'choose a password' : 'choose a new password'} and sign in to the console, once, until ${r.password_link_expires_at}. It is shown this once.`;

export const accountCommands: Command[] = [
  {
    words: ['account', 'create'],
    summary:
      'Create an account; prints a one-time link for the person to choose a password and reach the console (keys, balance, worker queue)',
    usage: 'account create --email ADDRESS [--base-url URL]',
    options: { email: { type: 'string' }, 'base-url': { type: 'string' } },
    run(ctx, values) {
      const base = baseUrl(ctx, values);
      const account = createAccount(ctx.openDb(), requireString(values, 'email'), ctx.now());
      return { account, ...passwordLink(ctx, base, account.id) };
    },
    text: (r) => `created account ${(r.account as { email: string }).email}\n${linkText(r)}`,
  },
  {
    words: ['account', 'password-link'],
    summary:
      "Issue a one-time link to set or reset an account's password (its earlier links stop working; a reset signs it out everywhere)",
    usage: 'account password-link --email ADDRESS [--base-url URL]',
    options: { email: { type: 'string' }, 'base-url': { type: 'string' } },
    run(ctx, values) {
      const base = baseUrl(ctx, values);
      const account = accountByEmail(ctx.openDb(), requireString(values, 'email'));
      return { account: account.email, ...passwordLink(ctx, base, account.id) };
    },
    text: linkText,
  },
  {
    words: ['key', 'create'],
    summary: 'Create an API key; it is printed this once and never again',
    usage:
      'key create --account EMAIL --service impact|human|funding [--name NAME] [--env test|live] [--scopes tasks:read,tasks:write]',
    options: {
      account: { type: 'string' },
      service: { type: 'string' },
      name: { type: 'string' },
      env: { type: 'string' },
      scopes: { type: 'string' },
    },
    run(ctx, values: Values) {
      const db = ctx.openDb();
      const service = requireString(values, 'service');
      if (!SERVICES.includes(service)) throw new UsageError(`--service is one of ${SERVICES.join(', ')}`);
      const env = values.env as string | undefined;
      if (env !== undefined && (service !== 'human' || !['test', 'live'].includes(env))) {
        throw new UsageError('--env is test or live, and only for human keys');
      }
      const account = accountByEmail(db, requireString(values, 'account'));
      const scopes =
        typeof values.scopes === 'string'
          ? values.scopes
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : undefined;
      const { key, row } = createKey(
        db,
        {
          accountId: account.id,
          service: service as Service,
          name: (values.name as string | undefined) ?? `${service} key`,
          environment: (env as Environment | undefined) ?? null,
          ...(scopes ? { scopes } : {}),
        },
        ctx.now(),
      );
      return { key, ...publicKey(row) };
    },
    text: (r) =>
      `${r.key}\n\nThis key is shown once. Store it now: only its hash is kept. (id ${r.id}, ${r.display_prefix}…)`,
  },
  {
    words: ['key', 'list'],
    summary: 'List keys (never the secrets): id, service, name, prefix, scopes, use and state',
    usage: 'key list [--account EMAIL] [--service impact|human|funding]',
    options: { account: { type: 'string' }, service: { type: 'string' } },
    run(ctx, values) {
      const db = ctx.openDb();
      const accountId = typeof values.account === 'string' ? accountByEmail(db, values.account).id : undefined;
      const service = values.service as Service | undefined;
      if (service !== undefined && !SERVICES.includes(service))
        throw new UsageError(`--service is one of ${SERVICES.join(', ')}`);
      return {
        keys: listKeys(db, { ...(accountId ? { accountId } : {}), ...(service ? { service } : {}) }).map(publicKey),
      };
    },
    text: (r) => {
      const keys = r.keys as ReturnType<typeof publicKey>[];
      if (keys.length === 0) return 'no keys';
      return keys
        .map((k) =>
          [
            k.id,
            k.service,
            k.environment ?? '-',
            `${k.display_prefix}…`,
            JSON.stringify(k.name),
            k.scopes.join(',') || '-',
            k.revoked_at ? `revoked ${k.revoked_at}` : k.expires_at ? `expires ${k.expires_at}` : 'active',
            `last used ${k.last_used_at ?? 'never'}`,
          ].join('  '),
        )
        .join('\n');
    },
  },
  {
    words: ['key', 'revoke'],
    summary: 'Revoke a key; the next request with it is refused with 401',
    usage: 'key revoke ID',
    options: {},
    positionals: ['ID'],
    run: (ctx, _values, [id]) => ({ revoked: publicKey(revokeKey(ctx.openDb(), keyId(id), ctx.now())) }),
  },
  {
    words: ['key', 'rotate'],
    summary: 'Create a new key with the same name and scopes; the old one works until revoked or the grace period ends',
    usage: 'key rotate ID [--expire-old-in 0|90m|24h|7d]',
    options: { 'expire-old-in': { type: 'string' } },
    positionals: ['ID'],
    run(ctx, values, [id]) {
      const now = ctx.now();
      const grace = typeof values['expire-old-in'] === 'string' ? parseGrace(values['expire-old-in']) : null;
      const { key, row } = rotateKey(ctx.openDb(), keyId(id), now, grace === null ? null : now + grace);
      return { key, ...publicKey(row), old_key_expires_at: grace === null ? null : iso(now + grace) };
    },
    text: (r) =>
      `${r.key}\n\nThis key is shown once. The old key (id ${r.rotated_from}) works ${r.old_key_expires_at ? `until ${r.old_key_expires_at}` : 'until you revoke it'}.`,
  },
  {
    words: ['subscription', 'set'],
    summary:
      'Give an account the pro funding plan, or end it (none), as the operator; takes effect on the next request and says which source (operator or stripe) granted the plan it replaced',
    usage: 'subscription set --account EMAIL --plan pro|none [--until YYYY-MM-DD]',
    options: { account: { type: 'string' }, plan: { type: 'string' }, until: { type: 'string' } },
    run(ctx, values) {
      const db = ctx.openDb();
      const plan = requireString(values, 'plan');
      if (plan !== 'pro' && plan !== 'none') throw new UsageError('--plan is pro or none');
      const until = values.until as string | undefined;
      if (until !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(until))
        throw new UsageError('--until is a date, YYYY-MM-DD (the plan ends at 00:00 UTC that day)');
      const account = accountByEmail(db, requireString(values, 'account'));
      const { replaced } = setSubscription(
        db,
        account.id,
        plan === 'pro' ? 'pro' : null,
        ctx.now(),
        until ? Date.parse(`${until}T00:00:00Z`) : null,
      );
      const stripe = liveStripeSubscription(db, account.id);
      return {
        account: account.email,
        plan,
        until: until ?? null,
        source: 'operator',
        replaced: replaced && {
          plan: replaced.plan,
          source: replaced.source,
          stripe_subscription: replaced.stripe_subscription_id,
          until: iso(replaced.ends_at),
        },
        // The plan follows Stripe's events: a live Stripe subscription keeps charging and grants pro again.
        warning: stripe
          ? `the account's Stripe subscription ${stripe.id} is ${stripe.status}: Stripe keeps charging it, and its next event grants pro again; cancel it in the Stripe Dashboard to stop both`
          : null,
      };
    },
    text: (r) => {
      const was = r.replaced as { plan: string; source: string; stripe_subscription: string | null } | null;
      const granted =
        r.plan === 'none'
          ? `ended the plan of ${String(r.account)}`
          : `${String(r.account)}: pro, granted by the operator${r.until ? ` until ${String(r.until)}` : ''}`;
      const before = was
        ? ` (replacing ${was.plan} granted by ${was.source === 'stripe' ? `Stripe subscription ${String(was.stripe_subscription)}` : 'the operator'})`
        : '';
      return `${granted}${before}${r.warning ? `\nwarning: ${String(r.warning)}` : ''}`;
    },
  },
];
