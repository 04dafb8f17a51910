/**
 * What a valibot schema accepts, and what a value is, in plain words, for the messages of every
 * validation path (issue 26: "name the field and what it accepts in plain words"): a field that must be
 * `v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100))` accepts "a whole number from 1 to
 * 100", and "2000" sent for it is "the text \"2000\"". Read from the schema itself, so a message never
 * drifts from what is enforced; a format a regex checks says it through that regex's own message.
 * tests/lib/plain-words.test.ts runs every input schema of the human service through it. Pure.
 */
import type * as v from 'valibot';

type Node = v.GenericSchema & {
  type: string;
  pipe?: readonly Node[];
  wrapped?: Node;
  options?: readonly unknown[];
  entries?: Record<string, Node>;
  item?: Node;
  value?: Node;
  literal?: unknown;
  requirement?: unknown;
  message?: unknown;
  kind: string;
  metadata?: Record<string, unknown>;
};

/** Digits as written; grouped from 10,000 on, where counting zeros gets hard. */
const number = (n: number) => (Math.abs(n) >= 10_000 ? n.toLocaleString('en-US') : String(n));

/**
 * The base schema and every action of a (possibly nested) pipe. A pipe that narrows with a schema
 * after its first (an object that is not a list, then a record) is described by its last schema.
 */
function flatten(schema: Node): { base: Node; actions: Node[] } {
  if (!schema.pipe) return { base: schema, actions: [] };
  const [head, ...rest] = schema.pipe;
  const inner = flatten(head!);
  const later = rest.filter((p) => p.kind === 'schema').at(-1);
  if (later) return { base: flatten(later).base, actions: rest.filter((p) => p.kind !== 'schema') };
  return { base: inner.base, actions: [...inner.actions, ...rest] };
}

const custom = (n: Node) => (typeof n.message === 'string' ? n.message : undefined);

function range(min: number | undefined, max: number | undefined, unit = ''): string {
  if (min !== undefined && max !== undefined)
    return min === max ? `exactly ${number(min)}${unit}` : `from ${number(min)} to ${number(max)}${unit}`;
  if (min !== undefined) return `at least ${number(min)}${unit}`;
  if (max !== undefined) return `at most ${number(max)}${unit}`;
  return '';
}

/** What `schema` accepts, e.g. "a whole number from 1 to 100", "one of: standard, express". */
export function accepts(schema: v.GenericSchema): string {
  const node = schema as Node;
  if (node.type === 'optional' || node.type === 'exact_optional') return accepts(node.wrapped!);
  if (node.type === 'nullable' || node.type === 'nullish') return `${accepts(node.wrapped!)}, or null`;
  const { base, actions } = flatten(node);
  const find = (type: string) => actions.filter((a) => a.type === type);
  const last = (type: string) => find(type).at(-1)?.requirement as number | undefined;
  const meta = actions.filter((a) => a.type === 'metadata').map((a) => a.metadata ?? {});
  switch (base.type) {
    case 'string': {
      if (find('iso_timestamp').length) return 'an ISO 8601 instant with a zone, e.g. 2026-11-22T10:00:00Z';
      const min = last('min_length') ?? (meta.find((m) => 'minLength' in m)?.minLength as number | undefined);
      const max = (meta.find((m) => 'maxLength' in m)?.maxLength as number | undefined) ?? last('max_length');
      const format = find('regex').map(custom).filter(Boolean).at(-1);
      const length = range(min === 0 ? undefined : min, max, ' characters');
      if (format) return length ? `${format} (${length})` : format;
      return length ? `a text of ${length.replace(/^from /, '')}` : 'a text';
    }
    case 'number': {
      const whole = find('integer').length > 0;
      const bounds = range(last('min_value'), last('max_value'));
      return `${whole ? 'a whole number' : 'a number'}${bounds ? ` ${bounds}` : ''}`;
    }
    case 'boolean':
      return 'true or false';
    case 'picklist':
      return `one of: ${(base.options as string[]).join(', ')}`;
    case 'literal':
      return `exactly ${JSON.stringify(base.literal)}`;
    case 'object':
    case 'strict_object':
    case 'loose_object':
      return custom(base) ?? `an object with the fields ${Object.keys(base.entries ?? {}).join(', ')}`;
    case 'record': {
      const count = range(last('min_entries'), last('max_entries'), ' entries');
      return (
        custom(base) ??
        `an object${count ? ` of ${count.replace(/^from /, '')}` : ''}, each value ${accepts(base.value!)}`
      );
    }
    case 'array': {
      const count = range(last('min_length'), last('max_length'), ' items');
      return `a list${count ? ` of ${count.replace(/^from /, '')}` : ''}, each ${accepts(base.item!)}`;
    }
    case 'union':
    case 'variant':
      return (base.options as Node[]).map((o) => accepts(o)).join(', or ');
    case 'null':
      return 'null';
    default:
      return 'any value';
  }
}

/** A value as a person would name it: `the text "2000"`, `the number 12`, `a list`, `null`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') {
    const cut = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return `the text ${JSON.stringify(cut)}`;
  }
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `a list of ${value.length} item${value.length === 1 ? '' : 's'}`;
  return 'an object';
}
