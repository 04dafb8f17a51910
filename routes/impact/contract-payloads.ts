/**
 * The `data` of each impact endpoint (document "Payload objects"), wrapped in the envelope, as the
 * OpenAPI contract's components. The shapes are data (contract-payloads.json), compiled to valibot by
 * contract-shapes.ts; the pieces every payload shares (Figure, Contribution, Reach, the envelope) are
 * contract.ts's.
 */
import type * as v from 'valibot';
import { compileShapes } from './contract-shapes.ts';
// Imported, not read at run time: the bundle (deploy/build.ts) carries it inside dist/main.js.
import payloads from './contract-payloads.json' with { type: 'json' };

const doc = payloads as unknown as {
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
