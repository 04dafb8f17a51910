import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readConfig } from '../../lib/config.ts';

test('defaults are SPEC\'s', () => {
  const c = readConfig({});
  assert.equal(c.port, 8080);
  assert.equal(c.host, '127.0.0.1');
  assert.equal(c.databasePath, './data/trio.sqlite');
  assert.equal(c.logLevel, 'info');
  assert.equal(c.demo, true);
  assert.equal(c.bodyLimitBytes, 1_048_576);
  assert.equal(c.searchCacheEntries, 1000);
  assert.equal(c.trustProxy('127.0.0.1'), false);
});

test('settings are read and checked', () => {
  const c = readConfig({ PORT: '0', DEMO: 'off', LOG_LEVEL: 'SILENT', TRUST_PROXY: 'loopback', SEARCH_CACHE_ENTRIES: '0' });
  assert.equal(c.port, 0);
  assert.equal(c.demo, false);
  assert.equal(c.logLevel, 'silent');
  assert.equal(c.trustProxy('127.0.0.1'), true);
  assert.equal(c.searchCacheEntries, 0);
  const refused: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: '70000' }, /PORT must be an integer from 0 to 65535/],
    [{ PORT: 'eighty' }, /PORT/],
    [{ DEMO: 'maybe' }, /DEMO must be on or off/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ BODY_LIMIT_BYTES: '0' }, /BODY_LIMIT_BYTES/],
    [{ SEARCH_CACHE_ENTRIES: '-1' }, /SEARCH_CACHE_ENTRIES/],
    [{ TRUST_PROXY: 'my-proxy' }, /TRUST_PROXY/],
  ];
  for (const [env, message] of refused) assert.throws(() => readConfig(env), message, JSON.stringify(env));
});
