import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readConfig } from '../../lib/config.ts';

test("defaults are SPEC's", () => {
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
  const c = readConfig({
    PORT: '0',
    DEMO: 'off',
    LOG_LEVEL: 'SILENT',
    TRUST_PROXY: 'loopback',
    SEARCH_CACHE_ENTRIES: '0',
  });
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

test('scaling settings: the default is one process, no Redis, writable, no heartbeat', () => {
  assert.deepEqual(readConfig({}).scaling, {
    workers: 1,
    redisUrl: null,
    readOnly: false,
    primaryUrl: null,
    heartbeatMs: 0,
    maxLagMs: 30_000,
  });
  const c = readConfig({
    WORKERS: '4',
    REDIS_URL: 'redis://10.0.0.5:6380/2',
    READ_ONLY: '1',
    PRIMARY_URL: 'https://api.example.org/',
    REPLICA_HEARTBEAT_MS: '1000',
    READ_ONLY_MAX_LAG_MS: '5000',
  });
  assert.deepEqual(c.scaling, {
    workers: 4,
    redisUrl: 'redis://10.0.0.5:6380/2',
    readOnly: true,
    primaryUrl: 'https://api.example.org',
    heartbeatMs: 1000,
    maxLagMs: 5000,
  });
  const refused: Array<[Record<string, string>, RegExp]> = [
    [{ WORKERS: '0' }, /WORKERS must be an integer from 1 to 64/],
    [{ WORKERS: 'all' }, /WORKERS/],
    [{ REDIS_URL: 'localhost:6379' }, /REDIS_URL must start with redis:\/\/ or rediss:\/\//],
    [{ REDIS_URL: 'http://cache:6379' }, /REDIS_URL must start with redis:\/\//],
    [{ READ_ONLY: 'replica' }, /READ_ONLY must be on or off/],
    [{ PRIMARY_URL: 'primary.internal:8080' }, /PRIMARY_URL must start with https:\/\/ or http:\/\//],
    [{ PRIMARY_URL: 'not a url' }, /PRIMARY_URL must be the address clients send writes to/],
    [{ PRIMARY_URL: 'https://user:secret@api.example.org' }, /PRIMARY_URL must not carry a user name or password/],
    [{ REPLICA_HEARTBEAT_MS: '-5' }, /REPLICA_HEARTBEAT_MS/],
  ];
  for (const [env, message] of refused) assert.throws(() => readConfig(env), message, JSON.stringify(env));
});
