/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, pinned 0.1.13: later releases
 * need Node 22's fs.globSync) against /human/v1/mcp, for the scenarios that apply to a server offering
 * tools only: initialize, ping, tools/list, and the DNS-rebinding guard. The others test capabilities
 * we do not offer (resources, prompts, logging, sampling) or tools of the suite's own reference server.
 * The suite's client sends no credentials, so a small proxy in front adds the key.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { startHumanServer, type HumanServer } from './harness.ts';

const SUITE = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'node_modules',
  '@modelcontextprotocol',
  'conformance',
  'dist',
  'index.js',
);
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

let server: HumanServer;
let proxy: Server;
let proxyUrl = '';
before(async () => {
  server = await startHumanServer();
  const key = server.account('test').key;
  const target = new URL(`${server.url}/human/v1/mcp`);
  proxy = createServer((req, res) => {
    const up = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: req.method,
        headers: { ...req.headers, authorization: `Bearer ${key}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(up);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;
});
after(async () => {
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await server.cleanup();
});

for (const scenario of SCENARIOS) {
  test(`conformance: ${scenario}`, async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [SUITE, 'server', '--url', proxyUrl, '--scenario', scenario],
      {
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
        timeout: 60_000,
      },
    ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
    // eslint-disable-next-line no-control-regex -- the suite colours its output: the escapes are what is removed
    const plain = stdout.replace(/\u001b\[[0-9;]*m/g, '');
    const result = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(plain);
    assert.ok(result, plain.slice(-500));
    assert.equal(result[3], '0', plain.slice(-800));
    assert.equal(result[1], result[2]);
  });
}
