/**
 * The pure parts of e-mail (issue 35): reading SMTP_URL and the MAIL_* settings, the one address
 * check every recipient passes, and what each message says (both parts, both languages, no raw user
 * text in the HTML).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readConfig } from '../../../lib/config.ts';
import { safeMailAddress } from '../../../lib/mail/address.ts';
import { readMailConfig } from '../../../lib/mail/config.ts';
import { renderMail } from '../../../lib/mail/templates.ts';

test('without SMTP_URL there is no mail; log, smtp:// and smtps:// are read, with credentials in the URL or apart', () => {
  assert.equal(readConfig({}).mail.transport, null);
  assert.equal(readMailConfig({ SMTP_URL: 'log' }).transport, 'log');
  assert.deepEqual(readMailConfig({ SMTP_URL: 'smtp://relay.example.org:587' }).transport, {
    url: 'smtp://relay.example.org:587',
    user: null,
    password: null,
  });
  assert.deepEqual(readMailConfig({ SMTP_URL: 'smtps://apikey:s%40cret@smtp.provider.example:465' }).transport, {
    url: 'smtps://smtp.provider.example:465',
    user: 'apikey',
    password: 's@cret',
  });
  assert.deepEqual(
    readMailConfig({ SMTP_URL: 'smtp://a:b@relay.example.org', SMTP_USER: 'other', SMTP_PASSWORD: 'pw' }).transport,
    { url: 'smtp://relay.example.org', user: 'other', password: 'pw' },
  );
  assert.deepEqual(readMailConfig({ MAIL_FROM: 'Fondos <avisos@fondos.example>' }).from, {
    name: 'Fondos',
    address: 'avisos@fondos.example',
  });
  assert.deepEqual(readMailConfig({ MAIL_FROM: 'avisos@fondos.example' }).from, {
    name: null,
    address: 'avisos@fondos.example',
  });
  assert.equal(readMailConfig({ PUBLIC_URL: 'https://trio.example.org/' }).publicUrl, 'https://trio.example.org');
  const key = '-----BEGIN PRIVATE KEY-----\\nMIIE\\n-----END PRIVATE KEY-----';
  assert.deepEqual(
    readMailConfig({ MAIL_DKIM_DOMAIN: 'example.org', MAIL_DKIM_SELECTOR: 's1', MAIL_DKIM_PRIVATE_KEY: key }).dkim,
    {
      domainName: 'example.org',
      keySelector: 's1',
      privateKey: '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----',
    },
  );
});

test('bad mail settings are refused, naming the setting', () => {
  const refused: Array<[Record<string, string>, RegExp]> = [
    [{ SMTP_URL: 'http://relay.example.org' }, /SMTP_URL must start with smtp:\/\/ or smtps:\/\//],
    [{ SMTP_URL: 'relay.example.org' }, /SMTP_URL must be/],
    [{ MAIL_FROM: 'a@example.org, b@example.org' }, /MAIL_FROM must be one address/],
    [{ MAIL_FROM: 'trio <a@example.org>\r\nBcc: b@example.org' }, /MAIL_FROM/],
    [{ MAIL_DKIM_DOMAIN: 'example.org' }, /all three/],
    [{ MAIL_DKIM_DOMAIN: 'e.org', MAIL_DKIM_SELECTOR: 's', MAIL_DKIM_PRIVATE_KEY: 'secret' }, /PEM/],
    [{ PUBLIC_URL: 'trio.example.org' }, /PUBLIC_URL/],
    [{ MAIL_DIGEST_HOUR: '24' }, /MAIL_DIGEST_HOUR must be an integer from 0 to 23/],
  ];
  for (const [env, message] of refused) assert.throws(() => readMailConfig(env), message, JSON.stringify(env));
});

test('only one plain address may reach a header', () => {
  const table: Array<[string, boolean]> = [
    ['ana.garcia@example.org', true],
    ['first+tag@sub.example.co.uk', true],
    ['a@example.org\r\nBcc: b@example.org', false],
    ['a@example.org\nSubject: x', false],
    ['a@example.org,b@example.org', false],
    ['a,b@example.org', false],
    ['"A B" <a@example.org>', false],
    ['<a@example.org>', false],
    ['a b@example.org', false],
    ['a@localhost', false],
    ['', false],
  ];
  for (const [address, ok] of table) assert.equal(safeMailAddress(address) !== null, ok, JSON.stringify(address));
});

test('every message has a text and an HTML part; values are escaped in the HTML; Spanish for funding when chosen', () => {
  const base = 'https://trio.example.org';
  const call = { id: 'bdns:923546', title: 'Ayudas <b>pymes</b> & "I+D"', funder: 'SOIB', deadline: '2026-12-31' };
  const alertData = {
    search: { id: 'ss_x', name: 'I+D <script>', query: 'q=x' },
    calls: [call],
    unsubscribe: '/console/unsubscribe/ss_x/m',
  };
  const en = renderMail('alert', alertData, 'en', base);
  assert.equal(en.subject, '1 new call for your search "I+D <script>"');
  assert.match(
    en.text,
    /Funder: SOIB\n {2}Deadline: 2026-12-31\n {2}https:\/\/trio\.example\.org\/explore\/funding\/calls\/bdns%3A923546/,
  );
  assert.doesNotMatch(en.html, /<script>|<b>pymes/);
  assert.match(en.html, /Ayudas &lt;b&gt;pymes&lt;\/b&gt; &amp; &quot;I\+D&quot;/);
  assert.equal(en.unsubscribe, 'https://trio.example.org/console/unsubscribe/ss_x/m');
  const es = renderMail('alert', alertData, 'es', base);
  assert.equal(es.subject, '1 convocatoria nueva para su búsqueda «I+D <script>»');
  assert.match(es.text, /Convocante: SOIB\n {2}Plazo: 2026-12-31/);
  assert.match(es.html, /<html lang="es">/);
  const noDeadline = renderMail('alert', { ...alertData, calls: [{ ...call, deadline: null }] }, 'es', base);
  assert.match(noDeadline.text, /Plazo: sin fecha indicada/);
  const verify = renderMail(
    'verify',
    { token: 'T'.repeat(43), expires_at: Date.parse('2026-11-23T10:00:00Z') },
    'en',
    base,
  );
  assert.match(verify.text, /https:\/\/trio\.example\.org\/console\/verify\/T{43}/);
  assert.match(verify.text, /until 2026-11-23 10:00 UTC/);
  assert.equal(verify.unsubscribe, null, 'a message the person asked for has no unsubscribe');
  const stands = renderMail(
    'dispute_outcome',
    { ref: 'tsk_1', resolution: 'answer_stands', note: null, environment: 'live' },
    'en',
    base,
  );
  assert.equal(stands.subject, 'Your dispute of task tsk_1: the answer stands');
  assert.doesNotMatch(stands.text, /Their note/);
});
