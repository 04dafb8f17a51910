/**
 * The mail settings, from the environment (.env.example, docs/operations.md "E-mail"):
 *
 * - SMTP_URL: unset (no mail: the site behaves as before, operators issue password links), `log`
 *   (each message written to the log, for development), or smtp://host:port (STARTTLS when offered)
 *   or smtps://host:port (TLS from the start), with the user and password in the URL or in SMTP_USER
 *   and SMTP_PASSWORD (which win).
 * - MAIL_FROM: the sender, one plain address, optionally with a name: `trio <no-reply@example.org>`.
 * - MAIL_DKIM_DOMAIN, MAIL_DKIM_SELECTOR, MAIL_DKIM_PRIVATE_KEY (PEM; `\n` may stand for line breaks):
 *   all three to sign with DKIM (Nodemailer's dkim option), none otherwise.
 * - PUBLIC_URL: the address people reach the site at, for the links in messages (default: the address
 *   the server listens on, right only on a developer's machine).
 * - MAIL_TIMEOUT_MS (30000), MAIL_POLL_MS (1000): one attempt's limit, how often the outbox is read.
 * - MAIL_DIGEST_HOUR (7): the UTC hour from which each day's saved-search digests are sent.
 * Pure: takes the environment as an argument.
 */
import { integer } from '../env-integer.ts';
import { safeMailAddress } from './address.ts';

export interface SmtpSettings {
  url: string;
  user: string | null;
  password: string | null;
}

export interface MailConfig {
  /** null: no mail; 'log': to the log; else the SMTP server. */
  transport: null | 'log' | SmtpSettings;
  from: { name: string | null; address: string };
  dkim: { domainName: string; keySelector: string; privateKey: string } | null;
  publicUrl: string | null;
  timeoutMs: number;
  pollMs: number;
  digestHour: number;
}

export function readMailConfig(env: Record<string, string | undefined>): MailConfig {
  return {
    transport: transport(env),
    from: sender(env.MAIL_FROM),
    dkim: dkim(env),
    publicUrl: publicUrl(env.PUBLIC_URL),
    timeoutMs: integer(env.MAIL_TIMEOUT_MS, 30_000, 'MAIL_TIMEOUT_MS', 1000, 300_000),
    pollMs: integer(env.MAIL_POLL_MS, 1000, 'MAIL_POLL_MS', 20, 60_000),
    digestHour: integer(env.MAIL_DIGEST_HOUR, 7, 'MAIL_DIGEST_HOUR', 0, 23),
  };
}

function transport(env: Record<string, string | undefined>): MailConfig['transport'] {
  const value = (env.SMTP_URL ?? '').trim();
  if (value === '') return null;
  if (value.toLowerCase() === 'log') return 'log';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error('SMTP_URL must be smtp://host:port, smtps://host:port or log');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new Error(`SMTP_URL must start with smtp:// or smtps:// (got ${url.protocol})`);
  if (!url.hostname) throw new Error('SMTP_URL names no host');
  const user = env.SMTP_USER || (url.username ? decodeURIComponent(url.username) : null);
  const password = env.SMTP_PASSWORD || (url.password ? decodeURIComponent(url.password) : null);
  url.username = '';
  url.password = '';
  return { url: url.href.replace(/\/$/, ''), user, password };
}

function sender(value: string | undefined): MailConfig['from'] {
  const text = (value ?? '').trim();
  if (text === '') return { name: 'trio', address: 'no-reply@localhost.localdomain' };
  const named = /^([^<>"\r\n]{1,80}?)\s*<([^<>\s]+)>$/.exec(text);
  const address = safeMailAddress(named ? named[2]! : text);
  if (address === null)
    throw new Error('MAIL_FROM must be one address, optionally with a name: trio <no-reply@example.org>');
  return { name: named ? named[1]!.trim() : null, address };
}

function dkim(env: Record<string, string | undefined>): MailConfig['dkim'] {
  const parts = [env.MAIL_DKIM_DOMAIN, env.MAIL_DKIM_SELECTOR, env.MAIL_DKIM_PRIVATE_KEY].map((p) => (p ?? '').trim());
  if (parts.every((p) => p === '')) return null;
  if (parts.some((p) => p === ''))
    throw new Error('DKIM signing needs MAIL_DKIM_DOMAIN, MAIL_DKIM_SELECTOR and MAIL_DKIM_PRIVATE_KEY, all three');
  const privateKey = parts[2]!.replace(/\\n/g, '\n');
  if (!/^-----BEGIN (RSA )?PRIVATE KEY-----/.test(privateKey))
    throw new Error('MAIL_DKIM_PRIVATE_KEY must be a PEM private key (-----BEGIN PRIVATE KEY-----…)');
  return { domainName: parts[0]!, keySelector: parts[1]!, privateKey };
}

function publicUrl(value: string | undefined): string | null {
  const text = (value ?? '').trim().replace(/\/+$/, '');
  if (text === '') return null;
  if (!/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(text))
    throw new Error('PUBLIC_URL must be the address people reach the site at, such as https://trio.example.org');
  return text;
}
