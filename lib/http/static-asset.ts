/**
 * A page asset (stylesheet, script) read once at start and served as the same reply on every
 * request: cached an hour by browsers, never sniffed as another type.
 */
import { readFileSync } from 'node:fs';
import type { Reply } from './types.ts';

export function staticAsset(path: string, type: string): Reply {
  return {
    status: 200,
    headers: { 'content-type': type, 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' },
    body: readFileSync(path),
  };
}
