/**
 * What each capability asks for (its spec) and what a person answers (its result), as valibot schemas.
 * They validate orders and deliveries, and the JSON Schemas published on /capabilities are generated
 * from them, so the contract never says something the server does not enforce. The catalogue in the
 * database (prices, cities) names capabilities by id; a catalogue row without a definition here is
 * refused when the catalogue is loaded.
 *
 * Result schemas are flat objects of strings, booleans and picklists: the console renders a form
 * from them (routes/console/worker.ts) without knowing the capability.
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';

const text = (min: number, max: number, what: string) =>
  v.pipe(
    v.string(`${what}: a string`),
    v.trim(),
    v.minLength(min, `${what}: ${min} to ${max} characters`),
    v.maxLength(max, `${what}: ${min} to ${max} characters`),
  );

const described = <T extends v.GenericSchema>(schema: T, description: string) =>
  v.pipe(schema, v.description(description));

export interface EvidenceRule {
  /** Photos (image/jpeg, image/png, image/webp) a delivery must carry. */
  minPhotos: number;
  /** Document scans (application/pdf) allowed. */
  documents: boolean;
}

export interface CapabilityDefinition {
  id: string;
  spec: v.GenericSchema;
  result: v.StrictObjectSchema<v.ObjectEntries, v.ErrorMessage<v.StrictObjectIssue> | undefined>;
  evidence: EvidenceRule;
  /** The answer a sandbox task delivers: valid against `result`, shaped by the magic value. */
  sandboxAnswer(lowConfidence: boolean): Record<string, unknown>;
  /** Labels for the console's delivery form, one per result field. */
  labels: Record<string, string>;
}

const verdict = v.picklist(
  ['confirmed', 'refuted', 'inconclusive'],
  'verdict: one of confirmed, refuted, inconclusive',
);

export const CAPABILITIES: Record<string, CapabilityDefinition> = {
  'human.verify': {
    id: 'human.verify',
    spec: v.strictObject({
      claim: described(
        text(1, 500, 'claim'),
        'The statement to check, e.g. "The shop at 12 Rue Oberkampf is open on Sundays".',
      ),
      subject: described(
        text(1, 200, 'subject'),
        'What or whom the claim is about, e.g. "Boulangerie Martin, 12 Rue Oberkampf".',
      ),
    }),
    result: v.strictObject({
      verdict: described(
        verdict,
        'confirmed: the claim holds; refuted: it does not; inconclusive: it could not be told.',
      ),
      note: described(text(1, 2000, 'note'), 'What the person saw, in their words.'),
    }),
    evidence: { minPhotos: 1, documents: false },
    sandboxAnswer: (low) =>
      low
        ? { verdict: 'inconclusive', note: 'Sandbox: the subject could not be seen clearly (synthetic answer).' }
        : { verdict: 'confirmed', note: 'Sandbox: the claim was checked on site (synthetic answer).' },
    labels: { verdict: 'Verdict', note: 'What you saw' },
  },
  'human.photo': {
    id: 'human.photo',
    spec: v.strictObject({
      subject: described(text(1, 200, 'subject'), 'What to photograph, e.g. "the entrance of Museo del Prado".'),
      address: v.optional(described(text(1, 300, 'address'), 'Where it is, when the city alone is not enough.')),
      instructions: v.optional(described(text(1, 1000, 'instructions'), 'Angles, details, what must be visible.')),
    }),
    result: v.strictObject({
      found: described(v.boolean('found: true or false'), 'Whether the subject was found at the location.'),
      description: described(text(1, 2000, 'description'), 'What the photos show.'),
    }),
    evidence: { minPhotos: 1, documents: false },
    sandboxAnswer: (low) =>
      low
        ? { found: false, description: 'Sandbox: the subject may have moved (synthetic answer).' }
        : { found: true, description: 'Sandbox: the subject photographed from the street (synthetic answer).' },
    labels: { found: 'Found it', description: 'What the photos show' },
  },
  'human.document_check': {
    id: 'human.document_check',
    spec: v.strictObject({
      document: described(
        text(1, 300, 'document'),
        'The document to check or pick up, e.g. "the building permit posted at the site".',
      ),
      address: described(text(1, 300, 'address'), 'Where the document is.'),
      questions: v.optional(
        described(text(1, 2000, 'questions'), 'What to check on it, e.g. "permit number and expiry date".'),
      ),
      pick_up: v.optional(
        described(
          v.boolean('pick_up: true or false'),
          'true: collect the document and keep it for hand-over (default false: check only).',
        ),
      ),
    }),
    result: v.strictObject({
      document_seen: described(v.boolean('document_seen: true or false'), 'Whether the person saw the document.'),
      verdict: described(
        v.picklist(
          ['matches', 'does_not_match', 'inconclusive'],
          'verdict: one of matches, does_not_match, inconclusive',
        ),
        'Whether it matches what the spec describes.',
      ),
      findings: described(text(1, 4000, 'findings'), 'Answers to the questions, and anything notable.'),
    }),
    evidence: { minPhotos: 0, documents: true },
    sandboxAnswer: (low) =>
      low
        ? {
            document_seen: true,
            verdict: 'inconclusive',
            findings: 'Sandbox: the document was partly illegible (synthetic answer).',
          }
        : {
            document_seen: true,
            verdict: 'matches',
            findings: 'Sandbox: the document matches the description (synthetic answer).',
          },
    labels: { document_seen: 'Saw the document', verdict: 'Verdict', findings: 'Findings' },
  },
};

export function definition(id: string): CapabilityDefinition | undefined {
  return Object.hasOwn(CAPABILITIES, id) ? CAPABILITIES[id] : undefined;
}

type Json = Record<string, unknown>;
const schemaCache = new Map<string, { spec: Json; result: Json }>();

/** The JSON Schemas (draft 2020-12, as OpenAPI 3.1 uses) generated from the valibot schemas. */
export function jsonSchemas(id: string): { spec: Json; result: Json } {
  let cached = schemaCache.get(id);
  if (!cached) {
    const def = definition(id);
    if (!def) throw new Error(`no capability ${id}`);
    const convert = (s: v.GenericSchema) => {
      const { $schema: _drop, ...rest } = toJsonSchema(s, {
        target: 'draft-2020-12',
        typeMode: 'input',
        errorMode: 'ignore',
      }) as Json;
      return rest;
    };
    cached = { spec: convert(def.spec), result: convert(def.result) };
    schemaCache.set(id, cached);
  }
  return cached;
}

/** A result field as the console's form shows it. */
export type ResultField =
  | { name: string; label: string; kind: 'choice'; options: string[] }
  | { name: string; label: string; kind: 'yesno' }
  | { name: string; label: string; kind: 'text'; maxLength: number };

/** The delivery form's fields, read off the generated JSON Schema (flat by design, see above). */
export function resultFields(id: string): ResultField[] {
  const def = definition(id)!;
  const properties = jsonSchemas(id).result.properties as Record<string, Json>;
  return Object.entries(properties).map(([name, p]): ResultField => {
    const label = def.labels[name] ?? name;
    if (Array.isArray(p.enum)) return { name, label, kind: 'choice', options: p.enum as string[] };
    if (p.type === 'boolean') return { name, label, kind: 'yesno' };
    return { name, label, kind: 'text', maxLength: Number(p.maxLength ?? 2000) };
  });
}
