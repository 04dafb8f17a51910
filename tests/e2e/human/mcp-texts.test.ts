/**
 * Over MCP, every text an agent reads names tools, not REST paths (issue 36): an agent told to call
 * "GET /coverage" cannot; it can call get_coverage. Read with the official MCP client's listTools:
 * each tool's title and description, and every description in its input and output JSON Schemas, at
 * any depth; and the server's instructions. REST's contract keeps its own words (checked on the
 * OpenAPI document, which still names its paths).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startHumanServer, type HumanServer } from './harness.ts';

let server: HumanServer;
let client: Client;
before(async () => {
  server = await startHumanServer();
  client = new Client({ name: 'trio-texts-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/human/v1/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${server.account('test').key}` } },
    }),
  );
});
after(async () => {
  await client?.close();
  await server?.cleanup();
});

// A method and a path ("GET /coverage", "POST /tasks/{ref}/cancel"), a service base, or a bare path of
// the API ("/capabilities", "the /ledger") outside a word.
const REST_PATH =
  /\b(GET|POST|PUT|PATCH|DELETE) \/|\/human\/v1|(^|[\s(`'"])\/(capabilities|coverage|quote|tasks|balance|ledger|events|webhooks|evidence)\b/;

/** Every `description` and `title` string in a JSON Schema, with where it is. */
function texts(schema: unknown, at: string, out: Array<[string, string]> = []): Array<[string, string]> {
  if (Array.isArray(schema)) schema.forEach((s, i) => texts(s, `${at}[${i}]`, out));
  else if (typeof schema === 'object' && schema !== null) {
    for (const [key, value] of Object.entries(schema)) {
      if ((key === 'description' || key === 'title') && typeof value === 'string') out.push([`${at}.${key}`, value]);
      else texts(value, `${at}.${key}`, out);
    }
  }
  return out;
}

test('no description reachable over MCP names a REST path', async () => {
  const { tools } = await client.listTools();
  assert.ok(tools.length >= 10);
  const found: Array<[string, string]> = [['instructions', client.getInstructions() ?? '']];
  for (const tool of tools) {
    found.push([`${tool.name}.description`, tool.description ?? ''], [`${tool.name}.title`, tool.title ?? '']);
    texts(tool.inputSchema, `${tool.name}.input`, found);
    texts(tool.outputSchema, `${tool.name}.output`, found);
  }
  assert.ok(found.length > 100, `read ${found.length} texts`);
  const offending = found.filter(([, text]) => REST_PATH.test(text)).map(([where, text]) => `${where}: ${text}`);
  assert.deepEqual(offending, []);
  // The texts still send the agent somewhere: to tools.
  const city = found.find(
    ([where]) => where === 'quote_task.input.properties.location.properties.city_slug.description',
  );
  assert.match(city?.[1] ?? '', /get_coverage/);
});

test("REST's contract keeps its own words", async () => {
  const doc = (await server.request('GET', '/human/v1/openapi.json')).json;
  const all = JSON.stringify(doc);
  assert.ok(all.includes('The city, as GET /coverage names it'), 'REST names its path');
  assert.ok(!/get_coverage|list_capabilities/.test(JSON.stringify(doc.components ?? {})), 'and no tool names');
});

test('the pattern finds what it must (and not a word that merely contains a path)', () => {
  for (const text of [
    'as GET /coverage names it',
    'see /capabilities',
    '(/ledger)',
    'POST /tasks/{ref}/cancel',
    'at /human/v1/mcp',
  ])
    assert.ok(REST_PATH.test(text), text);
  for (const text of ['get_coverage lists them', 'a quote_id from quote_task', 'and/or tasks', 'trio://human/tasks/x'])
    assert.ok(!REST_PATH.test(text), text);
});
