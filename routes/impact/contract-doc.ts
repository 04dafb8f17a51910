/**
 * GET /impact/v1/openapi.json: lib/openapi.ts builds the document from the operations, and converts
 * each schema on its own, so a Figure appears inline hundreds of times (the document was 277 KB). Here
 * every inline copy of a shared component (Figure, ProductRef, Run, the envelope's parts, Contribution, Reach, the metrics)
 * is replaced by a $ref to it: the same contract, readable, and 159 KB instead of 277. Components
 * are folded innermost first, so that an outer one (Contribution) matches once its inner ones (Figure)
 * are references too.
 */

/** Innermost first. */
export const SHARED = [
  'Figure',
  'ProductRef',
  'Run',
  'Source',
  'Licence',
  'Caveat',
  'Citation',
  'Withheld',
  'Contribution',
  'Reach',
  'Metrics',
  'ProductMetrics',
];

type Json = Record<string, unknown>;

export function foldComponents(doc: Json, names: readonly string[] = SHARED): Json {
  const schemas = (doc.components as { schemas: Record<string, unknown> }).schemas;
  for (const name of names) {
    const target = JSON.stringify(schemas[name]);
    const ref = { $ref: `#/components/schemas/${name}` };
    const fold = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(fold);
      if (value === null || typeof value !== 'object') return value;
      if (JSON.stringify(value) === target) return ref;
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fold(v)]));
    };
    for (const [other, schema] of Object.entries(schemas)) if (other !== name) schemas[other] = fold(schema);
    doc.paths = fold(doc.paths);
  }
  return doc;
}

/**
 * Every operation may be called with no credential or with an optional key in either header (issue 14:
 * schemes defined but attached to nothing, so generated clients never sent the key). `{}` first: the
 * key is optional. The document's own licence names what the figures' responses say per response.
 */
export const OPTIONAL_KEY = [{}, { bearer: [] }, { apiKey: [] }];

export function declareOptionalKey(doc: Json): Json {
  for (const item of Object.values(doc.paths as Record<string, Record<string, Json>>)) {
    for (const operation of Object.values(item)) operation.security = OPTIONAL_KEY;
  }
  const info = doc.info as Json;
  info.license = {
    name: "CC BY 4.0 (each response's licence field says what its figures may be reused under)",
    url: 'https://creativecommons.org/licenses/by/4.0/',
  };
  return doc;
}
