/**
 * The upload path fuzzed through the server's whole request pipeline (in-process: the bodies, not the
 * socket, are what is fuzzed): the console's delivery form (multipart reader, form checks,
 * type sniffing, EXIF reader, evidence storage) gets a few thousand generated bodies: well-formed
 * deliveries with damaged photos, parts with odd names and file names, wrong or missing boundaries,
 * truncated and spliced bodies. Each must be answered (never a hang) and never with a 500; a refused
 * delivery stores nothing, an accepted one moves the task to delivered with its evidence.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { verifyWorker } from '../../../db/human/workers.ts';
import { ConsoleClient } from '../../helpers/console.ts';
import { STOREFRONT, withExif } from '../../lib/human/jpeg-exif.ts';
import { checkLedgerAfterEach, startHumanServer, verifyOrder, type HumanServer } from './harness.ts';

let server: HumanServer;
before(async () => {
  server = await startHumanServer({ inProcess: true });
});
after(() => server?.cleanup());
checkLedgerAfterEach(() => server);

const RUNS = 2_000;

/** Never a hang: each delivery is answered within 15 s. */
function answered<T>(reply: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer within 15 s')), 15_000);
  });
  return Promise.race([reply, hang]).finally(() => clearTimeout(timer));
}
const B = '----WebKitFormBoundaryx7Q2Hc4pNtE1bG9A';
const PHOTO = withExif(STOREFRONT, {
  latitude: 48.86432,
  longitude: 2.37891,
  accuracyM: 6,
  gpsTime: new Date('2026-11-22T10:20:00Z'),
  localTime: '2026:11:22 11:20:00',
  offset: '+01:00',
});
const FIELDS = [
  'csrf',
  'answer.verdict',
  'answer.note',
  'confidence',
  'note',
  'files',
  'latitude',
  'longitude',
  'accuracy_m',
];

interface GenPart {
  name: string;
  filename: string | null;
  contentType: string | null;
  data: Uint8Array;
}

/** A photo with its EXIF block damaged: bytes overwritten and/or cut short, the JPEG magic kept. */
const damagedPhoto = fc
  .record({
    flips: fc.array(fc.record({ at: fc.nat({ max: 400 }), byte: fc.integer({ min: 0, max: 255 }) }), { maxLength: 16 }),
    cut: fc.option(fc.integer({ min: 3, max: PHOTO.length }), { nil: undefined }),
  })
  .map(({ flips, cut }) => {
    const bytes = Buffer.from(PHOTO);
    for (const { at, byte } of flips) bytes[3 + at] = byte;
    return new Uint8Array(cut === undefined ? bytes : bytes.subarray(0, cut));
  });

const text = (s: string) => new Uint8Array(Buffer.from(s));
const part: fc.Arbitrary<GenPart> = fc.record({
  name: fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 12 }), fc.constantFrom('a"b', 'a%22b', 'näme', '')),
  filename: fc.option(
    fc.oneof(
      fc.constantFrom('front.jpg', 'a%22b.jpg', '', '../../etc/passwd', 'x'.repeat(300)),
      fc.string({ maxLength: 20 }),
    ),
    { nil: null },
  ),
  contentType: fc.option(
    fc.constantFrom('image/jpeg', 'image/png', 'application/pdf', 'text/plain', 'application/octet-stream'),
    { nil: null },
  ),
  data: fc.oneof(
    damagedPhoto,
    fc.uint8Array({ maxLength: 300 }),
    fc.constantFrom('confirmed', 'yes', 'no', '90', '100.5', '-1', '48.8', '999', '').map(text),
    fc.string({ maxLength: 40 }).map(text),
  ),
});

/** The bytes on the wire: the form as a browser builds it, then possibly spliced or cut. */
const messy = fc.record({
  valid: fc.boolean(), // starts with a CSRF token, an answer and a confidence that pass
  photos: fc.array(damagedPhoto, { maxLength: 5 }),
  parts: fc.array(part, { maxLength: 6 }),
  closed: fc.boolean(),
  boundary: fc.oneof(
    fc.constant(B),
    fc.constantFrom('x', 'a'.repeat(70), 'q"q'),
    fc.string({ minLength: 1, maxLength: 10 }),
  ),
  headerBoundary: fc.oneof(fc.constant('same'), fc.constant('missing'), fc.string({ maxLength: 10 })),
  splice: fc.option(fc.record({ at: fc.nat(), bytes: fc.uint8Array({ maxLength: 40 }) }), { nil: undefined }),
  cut: fc.option(fc.nat(), { nil: undefined }),
});
/** A delivery a browser would send, its photos' EXIF damaged: these reach the EXIF reader and storage. */
const clean = fc.record({
  valid: fc.constant(true),
  photos: fc.array(damagedPhoto, { minLength: 1, maxLength: 4 }),
  parts: fc.constant<GenPart[]>([]),
  closed: fc.constant(true),
  boundary: fc.constant(B),
  headerBoundary: fc.constant('same'),
  splice: fc.constant(undefined),
  cut: fc.constant(undefined),
});
const delivery = fc.oneof({ arbitrary: clean, weight: 1 }, { arbitrary: messy, weight: 2 });

type Delivery = typeof delivery extends fc.Arbitrary<infer T> ? T : never;

function wire(d: Delivery, csrf: string): { body: Buffer; contentType: string } {
  const parts: GenPart[] = [];
  if (d.valid) {
    parts.push({ name: 'csrf', filename: null, contentType: null, data: text(csrf) });
    parts.push({ name: 'answer.verdict', filename: null, contentType: null, data: text('confirmed') });
    parts.push({
      name: 'answer.note',
      filename: null,
      contentType: null,
      data: text('Open, with a queue at the counter.'),
    });
    parts.push({ name: 'confidence', filename: null, contentType: null, data: text('90') });
  }
  for (const [i, photo] of d.photos.entries())
    parts.push({ name: 'files', filename: `p${i}.jpg`, contentType: 'image/jpeg', data: photo });
  parts.push(...d.parts);
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `Content-Disposition: form-data; name="${p.name}"${p.filename === null ? '' : `; filename="${p.filename}"`}`;
    chunks.push(
      Buffer.from(
        `--${d.boundary}\r\n${disposition}${p.contentType ? `\r\nContent-Type: ${p.contentType}` : ''}\r\n\r\n`,
      ),
      Buffer.from(p.data),
      Buffer.from('\r\n'),
    );
  }
  if (d.closed) chunks.push(Buffer.from(`--${d.boundary}--\r\n`));
  let body = Buffer.concat(chunks);
  if (d.splice) {
    const at = d.splice.at % (body.length + 1);
    body = Buffer.concat([body.subarray(0, at), Buffer.from(d.splice.bytes), body.subarray(at)]);
  }
  if (d.cut !== undefined) body = body.subarray(0, d.cut % (body.length + 1));
  const header = d.headerBoundary === 'same' ? d.boundary : d.headerBoundary;
  return {
    body,
    contentType: d.headerBoundary === 'missing' ? 'multipart/form-data' : `multipart/form-data; boundary="${header}"`,
  };
}

test(`the delivery form under ${RUNS.toLocaleString('en')} generated bodies: never a 500, never a hang, nothing stored when refused`, async (t) => {
  const client = new ConsoleClient(server);
  await client.signUp('fuzz@example.org');
  const workerId = server.app.db
    .prepare('SELECT id FROM accounts WHERE email = ?')
    .pluck()
    .get('fuzz@example.org') as number;
  verifyWorker(server.app.db, workerId, [{ country_iso: 'FR', city_slug: '*' }], server.clock.ms);
  // A new ordering client every 100 orders: one key may place at most 120 a minute.
  let orderer = server.account('live', { balance: 1_000_000 });
  let orders = 0;
  const cookie = () => [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const post = (path: string) => client.post(path, {}, { csrfFrom: '/console/worker' });

  /** A fresh task in progress for this worker (a delivery that went through used up the last one). */
  async function taskInProgress() {
    if (++orders % 100 === 0) orderer = server.account('live', { balance: 1_000_000 });
    const res = await server.order(orderer.key, verifyOrder());
    assert.equal(res.status, 201, res.text);
    const ref = res.json.data.ref as string;
    assert.equal((await post(`/console/worker/tasks/${ref}/accept`)).status, 303);
    assert.equal((await post(`/console/worker/tasks/${ref}/start`)).status, 303);
    const id = server.app.db.prepare('SELECT id FROM human_tasks WHERE ref = ?').pluck().get(ref) as number;
    return { ref, id, csrf: ConsoleClient.csrf((await client.get(`/console/worker/tasks/${ref}`)).text) };
  }
  const statusOf = server.app.db.prepare('SELECT status FROM human_tasks WHERE id = ?').pluck();
  const evidenceOf = server.app.db.prepare('SELECT COUNT(*) FROM human_evidence WHERE task_id = ?').pluck();

  let task = await taskInProgress();
  const seen = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(delivery, async (d) => {
      const { body, contentType } = wire(d, task.csrf);
      const res = await answered(
        server.request('POST', `/console/worker/tasks/${task.ref}/deliver`, {
          body,
          redirect: 'manual',
          headers: { cookie: cookie(), 'content-type': contentType },
        }),
      );
      const answer = res.text;
      seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
      assert.ok([303, 400, 403, 415].includes(res.status), `HTTP ${res.status}: ${answer.slice(0, 300)}`);
      if (res.status === 303) {
        assert.equal(statusOf.get(task.id), 'delivered');
        assert.ok((evidenceOf.get(task.id) as number) >= 1, 'a delivery keeps its evidence');
        task = await taskInProgress();
      } else {
        assert.equal(statusOf.get(task.id), 'in_progress', 'a refused delivery changes nothing');
        assert.equal(evidenceOf.get(task.id), 0, 'a refused delivery stores nothing');
      }
    }),
    { numRuns: RUNS },
  );
  // The generator reached every outcome: the test is not only bouncing off the first check.
  t.diagnostic(`answers by status: ${JSON.stringify(Object.fromEntries([...seen].sort()))}`);
  for (const status of [303, 400, 403, 415])
    assert.ok((seen.get(status) ?? 0) > 0, `no ${status} among ${JSON.stringify([...seen])}`);
});
