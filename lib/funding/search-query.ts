/**
 * The funding search language, turned into a safe FTS5 MATCH expression. Users write words (all must
 * match), "phrases", `OR` between terms, and `prefix*`. Every term is emitted as a quoted FTS5 string,
 * so no character a user types can reach FTS5's own syntax (`-`, `:`, `(`, `NEAR`, `^`…): input
 * FTS5 could not parse is either quoted safely here or refused with a message, never a 500.
 */

export class QueryError extends Error {}

export const MAX_TERMS = 32;

type Token = { kind: 'term'; fts: string } | { kind: 'or' };

const SEARCHABLE = /[\p{L}\p{N}]/u;

const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i]!;
    if (/\s/u.test(ch)) {
      i++;
    } else if (ch === '"') {
      const end = input.indexOf('"', i + 1);
      const phrase = input.slice(i + 1, end === -1 ? undefined : end); // an unclosed quote runs to the end
      i = end === -1 ? input.length : end + 1;
      const prefix = input[i] === '*';
      if (prefix) i++;
      if (SEARCHABLE.test(phrase)) tokens.push({ kind: 'term', fts: quote(phrase.trim()) + (prefix ? '*' : '') });
    } else {
      let end = i;
      while (end < input.length && !/\s/u.test(input[end]!) && input[end] !== '"') end++;
      const word = input.slice(i, end);
      i = end;
      if (word === 'OR') tokens.push({ kind: 'or' });
      else {
        const prefix = /\*+$/.test(word);
        const bare = word.replace(/\*+$/, '');
        if (SEARCHABLE.test(bare)) tokens.push({ kind: 'term', fts: quote(bare) + (prefix ? '*' : '') });
      }
    }
  }
  return tokens;
}

/** Returns the FTS5 expression for `q`, or throws QueryError with a message for the user. */
export function toFtsQuery(q: string): string {
  // Control characters separate words: a NUL inside a quoted FTS5 string ends it early in SQLite
  // ("unterminated string", a 500), and none of them is searchable.
  const tokens = tokenize(q.normalize('NFC').replace(/\p{Cc}/gu, ' '));
  const groups: string[][] = [];
  let expectTerm = true;
  let joinNext = false;
  for (const token of tokens) {
    if (token.kind === 'or') {
      if (expectTerm) throw new QueryError('OR must stand between two terms, e.g. solar OR wind.');
      expectTerm = true;
      joinNext = true;
      continue;
    }
    if (joinNext) groups[groups.length - 1]!.push(token.fts);
    else groups.push([token.fts]);
    expectTerm = false;
    joinNext = false;
  }
  if (joinNext) throw new QueryError('OR must stand between two terms, e.g. solar OR wind.');
  const termCount = groups.reduce((n, g) => n + g.length, 0);
  if (termCount === 0) throw new QueryError('contains no searchable words.');
  if (termCount > MAX_TERMS) throw new QueryError(`has more than ${MAX_TERMS} terms.`);
  return groups.map((g) => (g.length === 1 ? g[0]! : `(${g.join(' OR ')})`)).join(' AND ');
}
