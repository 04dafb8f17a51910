/**
 * The access line (lib/http/log.ts accessLog) is exactly what pino itself writes for the same fields:
 * with trio's logger (ISO time, no base, redaction), with pino's defaults (pid, hostname, epoch time),
 * for a child logger, for paths that need escaping; nothing below the logger's level; and pino's own
 * call for a logger configured in a way the writer does not reproduce.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import fc from 'fast-check';
import pino, { type Logger } from 'pino';
import { accessLog, createLogger, type AccessFields } from '../../../lib/http/log.ts';

function capture(make: (dest: Writable) => Logger): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const dest = new Writable({ write: (c, _e, done) => (lines.push(String(c)), done()) });
  return { log: make(dest), lines };
}

/** Both writers on the same logger at the same frozen instant: the line ours writes, and pino's. */
function both(make: (dest: Writable) => Logger, fields: AccessFields): [string, string] {
  const { log, lines } = capture(make);
  const realNow = Date.now;
  Date.now = () => Date.parse('2026-11-26T12:34:56.789Z');
  try {
    accessLog(log)(fields);
    log.info(fields, 'request');
  } finally {
    Date.now = realNow;
  }
  assert.equal(lines.length, 2);
  return [lines[0]!, lines[1]!];
}

const LOGGERS: Array<[string, (dest: Writable) => Logger]> = [
  ["trio's logger", (dest) => createLogger('info', dest)],
  ["pino's defaults", (dest) => pino({ level: 'info' }, dest)],
  ['a child logger', (dest) => pino({ level: 'info' }, dest).child({ worker: 2 })],
];

const fields = fc.record({
  reqId: fc.oneof(fc.uuid(), fc.stringMatching(/^[A-Za-z0-9._:-]{8,40}$/)),
  method: fc.constantFrom('GET', 'HEAD', 'POST', 'OPTIONS', 'DELETE'),
  path: fc.oneof(
    fc.string(),
    fc.string({ unit: 'grapheme' }),
    fc.constantFrom('/a"b', '/c\\d', '/e\u0001f', '/é/ü', '/x'.repeat(80)),
  ),
  status: fc.integer({ min: 100, max: 599 }),
  ms: fc.oneof(fc.double({ min: 0, max: 1e5, noNaN: true }), fc.constant(0.1)),
  ip: fc.constantFrom('127.0.0.1', '2001:db8:0:1::/64', ''),
  service: fc.constantFrom(undefined, 'human', 'funding', 'impact'),
  refused: fc.constantFrom(undefined, 'redis', 'database_busy'),
});

test('the access line is the line pino writes for the same fields', () => {
  for (const [name, make] of LOGGERS) {
    fc.assert(
      fc.property(fields, (f) => {
        const [ours, pinos] = both(make, f);
        assert.equal(ours, pinos, name);
      }),
      { numRuns: 300 },
    );
  }
});

test('a lone surrogate (never in a target node:http parsed, which is latin1) is escaped, where pino writes it raw', () => {
  const { log, lines } = capture((dest) => createLogger('info', dest));
  accessLog(log)({
    reqId: 'abcdefgh',
    method: 'GET',
    path: '/a\ud800b',
    status: 200,
    ms: 1,
    ip: '127.0.0.1',
    service: undefined,
    refused: undefined,
  });
  assert.match(lines[0]!, /"path":"\/a\\ud800b"/);
  assert.equal(JSON.parse(lines[0]!).path, '/a\ud800b');
});

test('nothing is written below the logger level; a logger the writer does not reproduce gets pino itself', () => {
  const f: AccessFields = {
    reqId: 'abcdefgh',
    method: 'GET',
    path: '/x',
    status: 200,
    ms: 1.5,
    ip: '127.0.0.1',
    service: undefined,
    refused: undefined,
  };
  const quiet = capture((dest) => createLogger('warn', dest));
  accessLog(quiet.log)(f);
  assert.deepEqual(quiet.lines, []);
  const mixed = capture((dest) => pino({ level: 'info', mixin: () => ({ node: 'a' }) }, dest));
  accessLog(mixed.log)(f);
  assert.equal(JSON.parse(mixed.lines[0]!).node, 'a', 'the mixin is applied: pino wrote it');
  assert.equal(JSON.parse(mixed.lines[0]!).msg, 'request');
});
