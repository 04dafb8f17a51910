/**
 * Saved searches by e-mail (issue 35), on the real demo corpus and a real SMTP server: a search set to
 * "each time" gets one message after an import of a matching new call (title, funder, deadline, link;
 * a one-click unsubscribe, RFC 8058); one set to "daily" waits for the digest, which lists the new
 * calls of all the account's daily searches once; the unsubscribe link works without signing in, and
 * the console shows the change. Spanish for an account that chose it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { importFundingFile } from '../../../db/funding/import.ts';
import { ConsoleClient } from '../../helpers/console.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { linkIn, rawHeader, startSmtp, type TestSmtp } from '../../helpers/smtp.ts';

const DETAIL = join(import.meta.dirname, '..', '..', '..', 'data', 'funding', 'bdns', 'convocatoria-923546.json');

let server: TestServer;
let smtp: TestSmtp;
let dir: string;
let seeker: ConsoleClient;

/** A new BDNS call: a real detail (923546) under another number, title and window. */
function newCall(id: string, title: string, days = 60): string {
  const d = JSON.parse(readFileSync(DETAIL, 'utf8')) as Record<string, unknown>;
  const day = (n: number) => new Date(server.clock.ms + n * 86_400_000).toISOString().slice(0, 10);
  Object.assign(d, {
    codigoBDNS: id,
    descripcion: title,
    fechaRecepcion: day(0),
    fechaInicioSolicitud: day(0),
    fechaFinSolicitud: day(days),
    textInicio: null,
    textFin: null,
  });
  const path = join(dir, `convocatoria-${id}.json`);
  writeFileSync(path, JSON.stringify(d));
  return path;
}

const deliver = () => server.app.mail!.deliverer.settle();

async function save(name: string, query: string, email: string, webhook = false) {
  const made = await seeker.post('/console/saved-searches', { name, query }, { csrfFrom: '/console/saved-searches' });
  assert.equal(made.status, 303, made.text.slice(0, 300));
  const path = made.headers.get('location')!;
  const set = await seeker.post(`${path}/alerts`, { email, ...(webhook ? { webhook: 'on' } : {}) }, { csrfFrom: path });
  assert.equal(set.status, 303, set.text.slice(0, 300));
  return path.split('/').at(-1)!;
}

before(async () => {
  smtp = await startSmtp();
  server = await startTestServer({ env: { SMTP_URL: smtp.url, MAIL_POLL_MS: '60000', MAIL_DIGEST_HOUR: '7' } });
  server.clock.set('2026-11-22T10:00:00Z');
  dir = mkdtempSync(join(tmpdir(), 'trio-alerts-'));
  seeker = new ConsoleClient(server, '10.2.0.1');
  await seeker.signUp('buscadora@example.org');
  await deliver();
  await fetch(linkIn(smtp.received.at(-1)!, '/console/verify/'));
  assert.equal((await seeker.signIn('buscadora@example.org')).status, 303);
});
after(async () => {
  await server.cleanup();
  await smtp.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a search set to e-mail each time: one message after an import of a matching new call', async () => {
  const id = await save('Hidrógeno', 'q=hidr%C3%B3geno', 'immediate');
  const page = await seeker.get(`/console/saved-searches/${id}`);
  assert.match(page.text, /data-alerts="immediate">E-mail me each time new calls match \(no webhook\)/);
  const before = smtp.received.length;
  server.clock.advance(1000);
  importFundingFile(
    server.app.db,
    'bdns',
    newCall('990101', 'Ayudas al hidrógeno verde en la industria'),
    server.clock.ms,
  );
  importFundingFile(
    server.app.db,
    'bdns',
    newCall('990102', 'Subvenciones a asociaciones culturales'),
    server.clock.ms,
  );
  await deliver();
  assert.equal(smtp.received.length, before + 1, 'one message: the other call does not match');
  const alert = smtp.received.at(-1)!;
  assert.deepEqual(alert.envelope.to, ['buscadora@example.org']);
  assert.equal(alert.mail.subject, '1 new call for your search "Hidrógeno"');
  const text = alert.mail.text!;
  assert.match(text, /Ayudas al hidrógeno verde en la industria/);
  assert.doesNotMatch(text, /asociaciones culturales/);
  // Funder and deadline as the API serves the call.
  const call = await server.get(`/funding/v1/calls/${encodeURIComponent('bdns:990101')}`);
  assert.equal(call.status, 200, call.text.slice(0, 200));
  const served = (call.json.data ?? call.json) as { funder: string; deadline: string; id: string };
  assert.ok(text.includes(`Funder: ${served.funder}`), text);
  assert.ok(text.includes(`Deadline: ${served.deadline}`), text);
  const link = `${server.url}/explore/funding/calls/${encodeURIComponent(served.id)}`;
  assert.ok(text.includes(link), text);
  assert.equal((await fetch(link)).status, 200, 'the link answers');
  // RFC 8058: the https (here http) address and the one-click POST.
  const unsubscribe = String(rawHeader(alert, 'List-Unsubscribe'));
  assert.match(unsubscribe, new RegExp(`^<${server.url}/console/unsubscribe/${id}/[A-Za-z0-9_-]{32}>$`));
  assert.equal(rawHeader(alert, 'List-Unsubscribe-Post'), 'List-Unsubscribe=One-Click');
  // Matched once: another import of the same call sends nothing.
  server.clock.advance(1000);
  importFundingFile(
    server.app.db,
    'bdns',
    newCall('990101', 'Ayudas al hidrógeno verde en la industria'),
    server.clock.ms,
  );
  await deliver();
  assert.equal(smtp.received.length, before + 1);
  // The webhook is off for this search: its event is recorded, queued to no endpoint.
  assert.equal(server.app.db.prepare('SELECT count(*) FROM webhook_deliveries').pluck().get(), 0);

  // The unsubscribe link, without signing in: a GET shows a button and changes nothing; the POST stops it.
  const url = unsubscribe.slice(1, -1);
  const shown = await fetch(url);
  assert.equal(shown.status, 200);
  assert.match(await shown.text(), /Stop receiving e-mail alerts of your saved search “Hidrógeno”/);
  assert.match((await seeker.get(`/console/saved-searches/${id}`)).text, /data-alerts="immediate"/);
  const oneClick = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  assert.equal(oneClick.status, 200);
  assert.match(await oneClick.text(), /data-unsubscribed="yes"/);
  assert.match((await seeker.get(`/console/saved-searches/${id}`)).text, /data-alerts="off">No e-mail/);
  // An altered link changes nothing.
  const altered = await fetch(
    url.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
    { method: 'POST', body: '' },
  );
  assert.equal(altered.status, 404);
  server.clock.advance(1000);
  importFundingFile(
    server.app.db,
    'bdns',
    newCall('990103', 'Hidrógeno renovable para el transporte'),
    server.clock.ms,
  );
  await deliver();
  assert.equal(smtp.received.length, before + 1, 'no more alerts');
});

test('daily searches: one digest a day listing the new calls of all of them, in Spanish when chosen', async () => {
  const lang = await seeker.post('/console/mail-language', { locale: 'es' }, { csrfFrom: '/console/saved-searches' });
  assert.equal(lang.status, 303);
  const eolica = await save('Eólica', 'q=e%C3%B3lica', 'daily');
  const agua = await save('Agua', 'q=agua', 'daily', true);
  const before = smtp.received.length;
  server.clock.set('2026-11-23T03:00:00Z');
  importFundingFile(server.app.db, 'bdns', newCall('990201', 'Ayudas a la energía eólica marina'), server.clock.ms);
  importFundingFile(
    server.app.db,
    'bdns',
    newCall('990202', 'Subvenciones para el ahorro de agua en regadío'),
    server.clock.ms,
  );
  await deliver();
  assert.equal(smtp.received.length, before, 'nothing at once');
  assert.equal(server.app.mail!.digests(), 0, 'not before 07:00 UTC');
  server.clock.set('2026-11-23T07:01:00Z');
  assert.equal(server.app.mail!.digests(), 1);
  assert.equal(server.app.mail!.digests(), 0, 'one a day');
  await deliver();
  assert.equal(smtp.received.length, before + 1);
  const digest = smtp.received.at(-1)!;
  assert.equal(digest.mail.subject, 'Sus búsquedas guardadas: 2 convocatorias nuevas (2026-11-23)');
  const text = digest.mail.text!;
  assert.match(text, /Eólica\n\n- Ayudas a la energía eólica marina\n {2}Convocante: /);
  assert.match(text, /Agua\n\n- Subvenciones para el ahorro de agua en regadío/);
  assert.match(text, /Plazo: \d{4}-\d\d-\d\d/);
  assert.match(String(rawHeader(digest, 'List-Unsubscribe')), /\/console\/unsubscribe\/digest\.\d+\//);
  assert.match(digest.mail.html as string, /<html lang="es">/);
  // The next day with nothing new: no digest. Something new: the next digest lists only that.
  server.clock.set('2026-11-24T08:00:00Z');
  assert.equal(server.app.mail!.digests(), 0);
  importFundingFile(server.app.db, 'bdns', newCall('990203', 'Depuración de agua en municipios'), server.clock.ms);
  server.clock.set('2026-11-25T07:30:00Z');
  assert.equal(server.app.mail!.digests(), 1);
  await deliver();
  const next = smtp.received.at(-1)!;
  assert.match(next.mail.text!, /Depuración de agua/);
  assert.doesNotMatch(next.mail.text!, /regadío|eólica marina/);
  // One click stops the digest for every daily search of the account.
  const url = String(rawHeader(next, 'List-Unsubscribe')).slice(1, -1);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  assert.equal(res.status, 200);
  for (const id of [eolica, agua])
    assert.match((await seeker.get(`/console/saved-searches/${id}`)).text, /data-alerts="off"/);
});
