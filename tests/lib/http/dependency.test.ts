/**
 * A dependency's outage as an operator reads it (lib/http/dependency.ts): one line when it goes down,
 * one every interval while it stays down (with how long and how many requests were refused), one when
 * it is back; the probe runs only while it is down and brings it back with no other help.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger } from '../../../lib/http/log.ts';
import { Dependency, describeError } from '../../../lib/http/dependency.ts';
import { until } from '../../helpers/until.ts';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const log = createLogger(
    'info',
    new Writable({ write: (c, _e, done) => (lines.push(JSON.parse(String(c)) as Record<string, unknown>), done()) }),
  );
  return { lines, log, msgs: () => lines.map((l) => l.msg) };
}

test('down once, still down with the count, up again: three kinds of line, whatever the request rate', async () => {
  const { lines, log, msgs } = capture();
  let answers = false;
  let probes = 0;
  const d = new Dependency({
    name: 'redis',
    effect: 'requests are refused',
    log,
    probe: () => {
      probes++;
      if (!answers) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6390'), { code: 'ECONNREFUSED' });
    },
    probeEveryMs: 10,
    stillDownEveryMs: 60,
  });
  await sleep(30);
  assert.equal(probes, 0, 'nothing is probed while up');
  assert.deepEqual(d.state(), { state: 'up' });

  d.fail('no answer within 1000 ms');
  for (let i = 0; i < 500; i++) {
    d.fail('no answer within 1000 ms'); // every refused request finds it down: no line of its own
    d.refused();
  }
  assert.equal(d.up, false);
  await until(() => msgs().includes('dependency still down'), 'a still-down line');
  const down = d.state();
  assert.equal(down.state, 'down');
  assert.equal(down.refused, 500);
  assert.equal(down.cause, 'connect ECONNREFUSED 127.0.0.1:6390', "the probe's failure is the latest cause");
  assert.ok(Date.parse(down.since!) <= Date.now());

  answers = true;
  await until(() => d.up, 'back up by the probe');
  const seen = msgs();
  assert.equal(seen.filter((m) => m === 'dependency down').length, 1);
  assert.equal(seen.filter((m) => m === 'dependency up again').length, 1);
  assert.equal(seen.length, 2 + seen.filter((m) => m === 'dependency still down').length, 'nothing else');
  const first = lines.find((l) => l.msg === 'dependency down')!;
  assert.deepEqual(
    [first.dependency, first.cause, first.effect, first.level],
    ['redis', 'no answer within 1000 ms', 'requests are refused', 40],
  );
  const still = lines.find((l) => l.msg === 'dependency still down')!;
  assert.equal(still.refused, 500);
  assert.ok(typeof still.downForS === 'number' && still.downForS >= 0.05, `downForS ${still.downForS}`);
  const upAgain = lines.find((l) => l.msg === 'dependency up again')!;
  assert.equal(upAgain.refused, 500);
  assert.equal(upAgain.level, 30);

  const stillLines = seen.filter((m) => m === 'dependency still down').length;
  const probesThen = probes;
  await sleep(150);
  assert.equal(msgs().filter((m) => m === 'dependency still down').length, stillLines, 'no still-down line once up');
  assert.equal(probes, probesThen, 'no probe once up');
  assert.deepEqual(d.state(), { state: 'up' });
  d.refused(); // a refusal while up (the database busy) changes nothing
  assert.deepEqual(d.state(), { state: 'up' });
});

test('a probe that waits (a frozen server answers when it wakes) brings it back when it resolves', async () => {
  const { log, msgs } = capture();
  let wake: () => void = () => {};
  const d = new Dependency({
    name: 'cluster_primary',
    effect: 'refused',
    log,
    probe: () => new Promise<void>((resolve) => (wake = resolve)),
    probeEveryMs: 10,
  });
  d.fail('no answer within 5000 ms');
  await sleep(50);
  assert.equal(d.up, false);
  wake();
  await until(() => d.up, 'up once the probe resolves');
  assert.deepEqual(msgs(), ['dependency down', 'dependency up again']);
});

test('stopped: no more lines and no more probes', async () => {
  const { log, msgs } = capture();
  let probes = 0;
  const d = new Dependency({
    name: 'database',
    effect: 'refused',
    log,
    probe: () => {
      probes++;
      throw new Error('SQLITE_FULL');
    },
    probeEveryMs: 10,
    stillDownEveryMs: 20,
  });
  d.fail('SQLITE_FULL: database or disk is full');
  await sleep(30);
  d.stop();
  const [lines, count] = [msgs().length, probes];
  await sleep(80);
  assert.equal(msgs().length, lines);
  assert.ok(probes <= count + 1, 'at most the probe in flight');
  d.fail('again');
  assert.equal(msgs().length, lines, 'a stopped dependency reports nothing');
});

test('describeError: the code (unless the message names it), then the message', () => {
  const cases: Array<[unknown, string]> = [
    [
      Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }),
      'SQLITE_FULL: database or disk is full',
    ],
    [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
      'connect ECONNREFUSED 127.0.0.1:1',
    ],
    [Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }), 'EACCES: permission denied'],
    [
      Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' }),
      'SQLITE_READONLY: attempt to write a readonly database',
    ],
    [new TypeError('The database connection is not open'), 'The database connection is not open'],
    ['plain', 'plain'],
  ];
  for (const [err, line] of cases) assert.equal(describeError(err), line);
});
