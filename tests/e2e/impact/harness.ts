/**
 * The real trio server (tests/helpers/server.ts) for the impact API: the demo database with its five
 * published runs, or, with `published: false`, a database holding the impact register alone (what
 * `demo --no-publish` leaves; both copied from templates, tests/helpers/demo-template.ts), so every
 * figure is withheld. Requests go with an `ia_` key by default (10,000 a day) so that the suites are
 * not limited to 100 requests per address; `anon` sends none.
 */
import { accountWithKey } from '../../helpers/keys.ts';
import { startTestServer, type TestResponse, type TestServer } from '../../helpers/server.ts';

export const BASE = '/impact/v1';
export const SCENARIOS = ['S-MAX', 'S-EVID', 'S-RES', 'S-ARMS', 'S-CONS'] as const;
/** The breakdowns of a product's material route, in the order the contract lists them (issue 24 adds the bases). */
export const MATERIAL_BREAKDOWNS = [
  'material',
  'country',
  'conflict',
  'channel',
  'sector',
  'basis',
  'basis_counts',
  'basis_attribution',
  'basis_materials',
  'basis_bom',
];

export interface ImpactServer extends TestServer {
  key: string;
  /** GET under /impact/v1 with the key. */
  api(path: string, headers?: Record<string, string>): Promise<TestResponse>;
  /** GET under /impact/v1 without a key. */
  anon(path: string, headers?: Record<string, string>): Promise<TestResponse>;
  /** A fresh valid key (its own daily allowance). */
  newKey(): string;
}

/** `inProcess`: requests without a socket (tests/helpers/in-process.ts). */
export async function startImpactServer(
  options: { published?: boolean; inProcess?: boolean } = {},
): Promise<ImpactServer> {
  const published = options.published !== false;
  const inProcess = options.inProcess ?? false;
  const server = (await startTestServer(
    published ? { inProcess } : { impactRegisterOnly: true, inProcess },
  )) as ImpactServer;
  server.newKey = () => accountWithKey(server.app.db, 'impact', server.clock.ms).key;
  server.key = server.newKey();
  server.api = (path, headers = {}) => server.get(BASE + path, { authorization: `Bearer ${server.key}`, ...headers });
  server.anon = (path, headers = {}) => server.get(BASE + path, headers);
  return server;
}

export interface FoundFigure {
  path: string;
  figure: {
    central: number | null;
    low: number;
    median: number;
    high: number;
    grade: string;
    unit: string;
    display: string;
    quotable?: string | null;
    provenance?: { published: number; derived: number; assumption: number; illustrative: number };
  };
}

/** Every Figure object anywhere in a JSON value (an object with grade, display and unit), with where it was. */
export function figuresIn(value: unknown, path = '$'): FoundFigure[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => figuresIn(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  const o = value as Record<string, unknown>;
  if ('grade' in o && 'display' in o && 'unit' in o && 'low' in o)
    return [{ path, figure: o as unknown as FoundFigure['figure'] }];
  return Object.entries(o).flatMap(([k, v]) => figuresIn(v, `${path}.${k}`));
}

/** Relative closeness, for sums of floating-point parts. */
export function close(a: number, b: number, rel = 1e-9): boolean {
  return Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b)) + 1e-300;
}
