/**
 * The credentials the fuzzer sends: the valid kinds for an operation (an impact key or none, a
 * sandbox or live human key, a funding basic or pro key) and the bad ones (unknown, revoked,
 * malformed, another service's, two different keys, a key in the URL, no key where one is needed),
 * each with the contract's verdict when the request must be refused.
 */
import { randomBytes } from 'node:crypto';
import type { Operation } from './operations.ts';
import { pickFrom } from './real-values.ts';
import type { World } from './world.ts';

const VALID_AUTH: Record<string, string[]> = {
  impact: ['key', 'key', 'key', 'x-api-key', 'anonymous'],
  humanKeyed: ['test', 'test', 'test', 'test-x-api-key', 'live', 'live'],
  humanOrder: ['test', 'test', 'test', 'test-x-api-key', 'live', 'live', 'broke'],
  humanOpen: ['anonymous', 'anonymous', 'test', 'live'],
  funding: ['anonymous', 'basic', 'pro'],
  fundingExport: ['pro', 'pro', 'pro', 'basic'],
};
export const BAD_AUTH: Record<string, string[]> = {
  impact: ['unknown', 'revoked', 'malformed', 'other-service', 'conflict', 'in-query', 'empty-bearer'],
  human: [
    'none',
    'unknown',
    'revoked',
    'malformed',
    'other-service',
    'read-only',
    'conflict',
    'in-query',
    'empty-bearer',
  ],
  funding: ['unknown', 'revoked', 'bearer', 'in-query', 'none'],
};

export function validAuthLabels(op: Operation): string[] {
  if (op.service === 'impact') return VALID_AUTH.impact!;
  if (op.service === 'funding') return op.path === '/export' ? VALID_AUTH.fundingExport! : VALID_AUTH.funding!;
  if (!op.keyed) return VALID_AUTH.humanOpen!;
  return op.method === 'POST' && op.path === '/tasks' ? VALID_AUTH.humanOrder! : VALID_AUTH.humanKeyed!;
}

const fakeKey = (prefix: string) => prefix + randomBytes(24).toString('base64url').replace(/[-_]/g, 'x').slice(0, 32);

/** Puts the credential `label` names on the request; pushes the reason when it must be refused. */
export function applyAuth(
  op: Operation,
  label: string,
  world: World,
  headers: Record<string, string | string[]>,
  extraQuery: Array<[string, string]>,
  refusals: string[],
): void {
  const bearer = (key: string) => (headers.authorization = `Bearer ${key}`);
  const own =
    op.service === 'impact' ? world.impact.key : op.service === 'funding' ? world.funding.basic : world.human.test.key;
  const prefix = op.service === 'impact' ? 'ia_' : op.service === 'funding' ? 'fnd_' : 'ho_test_';
  const refuse = (why: string) => refusals.push(why);
  switch (label) {
    case 'anonymous':
    case 'none':
      if (op.keyed) refuse('no key on an operation that needs one');
      break;
    case 'key':
      bearer(world.impact.key);
      break;
    case 'x-api-key':
      headers['x-api-key'] = world.impact.key;
      break;
    case 'test':
      bearer(world.human.test.key);
      break;
    case 'test-x-api-key':
      headers['X-Api-Key'] = world.human.test.key;
      break;
    case 'live':
      bearer(world.human.live.key);
      break;
    case 'broke':
      bearer(world.human.broke.key);
      break;
    case 'read-only':
      bearer(world.human.readOnly.key);
      if (op.writeScope) refuse('the key lacks tasks:write');
      break;
    case 'basic':
      headers['x-api-key'] = world.funding.basic;
      if (op.path === '/export') refuse('export is for pro keys only');
      break;
    case 'pro':
      headers['x-api-key'] = world.funding.pro;
      break;
    case 'unknown':
      if (op.service === 'funding') headers['x-api-key'] = fakeKey(prefix);
      else bearer(fakeKey(prefix));
      refuse('an unknown key');
      break;
    case 'revoked': {
      const key =
        op.service === 'impact'
          ? world.impact.revoked
          : op.service === 'funding'
            ? world.funding.revoked
            : world.human.revoked;
      if (op.service === 'funding') headers['x-api-key'] = key;
      else bearer(key);
      refuse('a revoked key');
      break;
    }
    case 'malformed':
      headers.authorization = pickFrom(
        ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer a b', `Token ${own}`, `bearer:${own}`],
        own.length,
      )!;
      refuse('a malformed Authorization header');
      break;
    case 'empty-bearer':
      headers.authorization = 'Bearer ';
      refuse('an empty bearer token');
      break;
    case 'other-service':
      bearer(op.service === 'impact' ? world.human.test.key : world.impact.key);
      refuse("another service's key");
      break;
    case 'conflict':
      bearer(own);
      headers['x-api-key'] = fakeKey(prefix);
      refuse('two different keys');
      break;
    case 'bearer':
      bearer(world.funding.basic);
      refuse('funding takes keys only in X-API-Key');
      break;
    case 'in-query':
      extraQuery.push(['api_key', own]);
      refuse('a key in the query string');
      break;
  }
}
