/**
 * Checks responses against an OpenAPI 3.1 document with an independent JSON Schema validator (Ajv,
 * draft 2020-12), resolving #/components references.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

export function responseValidator(doc: Doc) {
  const ajv = new Ajv2020.default({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'contract', components: doc.components }, 'contract');
  const rewrite = (schema: unknown): unknown =>
    JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"contract#/components/'));
  // Compiled once per operation and status: compiling a large schema costs tens of milliseconds, and
  // the fuzz suite (tests/reliability/contract-fuzz.test.ts) checks thousands of responses.
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  return (path: string, method: string, status: number, body: unknown): string | null => {
    const operation = doc.paths[path]?.[method.toLowerCase()];
    if (!operation) return `no operation ${method} ${path} in the contract`;
    const response = operation.responses[String(status)];
    if (!response) return `status ${status} is not documented for ${method} ${path}`;
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return null;
    const cacheKey = `${method.toLowerCase()} ${path} ${status}`;
    let validate = compiled.get(cacheKey);
    if (!validate) compiled.set(cacheKey, (validate = ajv.compile(rewrite(schema) as object)));
    return validate(body) ? null : ajv.errorsText(validate.errors);
  };
}
