/**
 * Makes a table the explorer rendered fit a phone (issue 14): adds the `stack` class (each row a card
 * on a narrow screen, explore.css) and labels every data cell with its column's header (data-label,
 * shown before the value). Works on the tables our own templates write: one header row of
 * <th scope="col">, body rows of <th scope="row"> and <td>. A cell spanning columns is left unlabelled.
 * Pure.
 */
import { Html } from '../html.ts';

const stripTags = (s: string) =>
  s
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();

export function stackLabels(table: Html): Html {
  let s = table.value;
  const head = /<thead>([\s\S]*?)<\/thead>/.exec(s);
  if (!head) return table;
  const labels = [...head[1]!.matchAll(/<th\b[^>]*>([\s\S]*?)<\/th>/g)].map((m) =>
    stripTags(m[1]!).replace(/"/g, '&quot;'),
  );
  s = s.replace(
    /^<table(?: class="([^"]*)")?/,
    (_m, cls: string | undefined) => `<table class="stack${cls ? ` ${cls}` : ''}"`,
  );
  const start = head.index + head[0].length;
  const body = s.slice(start).replace(/<tr\b[^>]*>[\s\S]*?<\/tr>/g, (row) => {
    let col = 0;
    return row.replace(/<(th|td)\b([^>]*)>/g, (tag, name: string, attrs: string) => {
      const span = Number(/colspan="(\d+)"/.exec(attrs)?.[1] ?? 1);
      const at = col;
      col += span;
      if (name === 'th' || span > 1 || /data-label=/.test(attrs) || !labels[at]) return tag;
      return `<td${attrs} data-label="${labels[at]}">`;
    });
  });
  return new Html(s.slice(0, start) + body);
}
