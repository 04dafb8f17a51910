/**
 * Cached search pages are never stale: an import, a deadline passing, an opening, the clock moving
 * back, each gives the answer a fresh computation would.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { corpusEpoch } from '../../../db/funding/corpus-epoch.ts';
import { importFundingText } from '../../../db/funding/import.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer({ inProcess: true });
});
after(() => server.cleanup());

const ids = async (query: string) => {
  server.clock.advance(1); // stays well inside the minute's allowance with the spacing below
  const res = await server.get(`/funding/v1/search?${query}&per_page=100`);
  assert.equal(res.status, 200, res.text);
  return res.json.data.map((c: { id: string; status: string }) => `${c.id}:${c.status}`).sort();
};

test('the corpus epoch ends at the next opening, closing or UTC midnight', () => {
  const epochs = corpusEpoch(server.app.db);
  const now = server.clock.ms;
  const { validUntil } = epochs.at(now);
  const nextClose = server.app.db
    .prepare('SELECT min(closes_at) FROM funding_calls WHERE personal_data = 0 AND closes_at > ?')
    .pluck()
    .get(now) as number;
  const nextOpen = server.app.db
    .prepare('SELECT min(opens_at) FROM funding_calls WHERE personal_data = 0 AND opens_at > ?')
    .pluck()
    .get(now) as number | null;
  const midnight = Math.floor(now / 86_400_000) * 86_400_000 + 86_400_000;
  assert.equal(validUntil, Math.min(nextClose, nextOpen ?? Infinity, midnight));
});

test('a page served from the cache changes as soon as a call closes, and again if the clock goes back', async () => {
  const before = await ids('status=open');
  assert.deepEqual(await ids('status=open'), before, 'same answer twice (the second from the cache)');
  const { id: closing, closes_at: nextClose } = server.app.db
    .prepare(
      `SELECT id, closes_at FROM funding_calls WHERE personal_data = 0
    AND closes_at > ? ORDER BY closes_at LIMIT 1`,
    )
    .get(server.clock.ms) as { id: string; closes_at: number };
  assert.ok(before.includes(`${closing}:open`), 'the next call to close is open now');
  const saved = server.clock.ms;
  server.clock.ms = nextClose;
  const afterClose = await ids('status=open');
  assert.ok(
    !afterClose.some((c: string) => c.startsWith(closing + ':')),
    `the call that closed has left the open list: ${before} → ${afterClose}`,
  );
  server.clock.ms = saved;
  assert.deepEqual(await ids('status=open'), before, 'back in time: the earlier answer, not the cached later one');
});

test('an import is visible on the next request', async () => {
  const before = await ids('q=praderas');
  assert.deepEqual(before, []);
  const detail = {
    id: 999001,
    codigoBDNS: '999001',
    descripcion: 'Ayudas para la restauración de praderas marinas',
    fechaRecepcion: '2026-11-20',
    organo: { nivel1: 'ESTADO', nivel2: 'MINISTERIO PARA LA TRANSICIÓN ECOLÓGICA', nivel3: null },
    abierto: false,
    fechaInicioSolicitud: '2026-11-21',
    fechaFinSolicitud: '2027-02-01',
    presupuestoTotal: 1000000,
    tiposBeneficiarios: [],
    sectores: [],
    regiones: [],
    instrumentos: [],
    textInicio: null,
    textFin: null,
  };
  importFundingText(server.app.db, 'bdns', 'convocatoria-999001.json', JSON.stringify(detail), server.clock.ms);
  assert.deepEqual(await ids('q=praderas'), ['bdns:999001:open']);
});
