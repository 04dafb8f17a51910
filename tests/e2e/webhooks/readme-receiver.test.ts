/**
 * The README's webhook receiver, run as written (extracted from the README between its markers) in its
 * own node process, receives real deliveries from the server and accepts them; a forged one it refuses.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { advance, SANDBOX_DELAY_MS as D, startHumanServer, verifyOrder, type HumanServer } from '../human/harness.ts';

let server: HumanServer;
before(async () => {
  server = await startHumanServer({ inProcess: true });
  server.clock.set(new Date().toISOString()); // the receiver checks the timestamp against its own clock
});
after(() => server.cleanup());

const README = readFileSync(join(import.meta.dirname, '..', '..', '..', 'README.md'), 'utf8');

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

test("the README's receiver verifies real deliveries and refuses a forged one", async (t) => {
  const block = /<!-- webhook-receiver:start -->\s*```js\n([\s\S]*?)```\s*<!-- webhook-receiver:end -->/.exec(README);
  assert.ok(block, 'the README has the receiver between its markers');
  const file = join(server.dir, 'receiver.mjs');
  writeFileSync(file, block[1]!);
  const buyer = server.account('test');
  const port = await freePort();
  const made = await server.call('POST', '/webhook_endpoints', buyer.key, { url: `http://127.0.0.1:${port}/hooks` });
  const child = spawn(process.execPath, [file], {
    env: { ...process.env, TRIO_WEBHOOK_SECRET: made.json.data.secret, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.after(() => void child.kill());
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' }).catch(() => null);
    if (up) {
      assert.equal(up.status, 400, 'a request without a signature is refused');
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const ref = (await server.order(buyer.key, verifyOrder())).json.data.ref;
  await server.deliver();
  await advance(server, D);
  await server.deliver();
  const forged = await fetch(`http://127.0.0.1:${port}/hooks`, {
    method: 'POST',
    headers: {
      'webhook-id': 'evt_forged',
      'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
      'webhook-signature': 'v1,' + Buffer.alloc(32).toString('base64'),
    },
    body: '{"type":"human.task.completed","data":{}}',
  });
  assert.equal(forged.status, 400);
  const event = (await server.call('GET', `/events?task=${ref}`, buyer.key)).json.data;
  const deliveries = await Promise.all(
    event.map(
      async (e: { id: string }) => (await server.call('GET', `/events/${e.id}`, buyer.key)).json.data.deliveries[0],
    ),
  );
  assert.deepEqual(
    deliveries.map((d: { status: string; last_status: number }) => [d.status, d.last_status]),
    [
      ['succeeded', 204],
      ['succeeded', 204],
    ],
  );
  assert.equal(out.trim(), `human.task.created ${ref} pending\nhuman.task.dispatched ${ref} dispatched`);
});
