/**
 * The `data` of each impact endpoint (document "Payload objects"), wrapped in the envelope, as the
 * OpenAPI contract's components. The shapes are data (contract-payloads.json), compiled to valibot by
 * contract-shapes.ts; the pieces every payload shares (Figure, Contribution, Reach, the envelope) are
 * contract.ts's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as v from 'valibot';
import { compileShapes } from './contract-shapes.ts';

const doc = JSON.parse(readFileSync(join(import.meta.dirname, 'contract-payloads.json'), 'utf8')) as {
  components: Array<string | [string, string]>;
  schemas: Record<string, never>;
};
const named = compileShapes(doc);

/** Every component of the contract, by the name it is published under. */
export const COMPONENTS: Record<string, v.GenericSchema> = Object.fromEntries(
  doc.components.map((c) => {
    const [as, name] = typeof c === 'string' ? [c, c] : c;
    const schema = named[name];
    if (!schema) throw new Error(`contract-payloads.json: no schema ${name} for component ${as}`);
    return [as, schema];
  }),
);
