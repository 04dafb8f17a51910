/**
 * Which official bulletin a text names, and which of a call's publications is in it. A relative
 * period counts from a publication ("desde el día siguiente a la publicación … en el BOPB"); a BDNS
 * detail lists the call's publications in `anuncios[]`, each with its bulletin as BDNS writes it
 * ("BOE. BOLETÍN OFICIAL DEL ESTADO", "DOGC. D.O. DE LA GENERALITAT DE CATALUNYA", "B.O.P. DE
 * BARCELONA", "DOCV. D.O. DE LA COMUNITAT VALENCIANA"). Both sides are reduced to one key.
 */
import type { Publication } from './records.ts';

const squash = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

/**
 * One key per bulletin: 'boe', 'dogc', 'dogv' (the Valencian bulletin, DOGV until 2023 and DOCV
 * since), 'bop' (any provincial bulletin: BOPB, B.O.P. de Lleida), 'regional' for a name that says
 * only "diari oficial"/"diario oficial", else the name's first letters.
 */
export function bulletinKey(name: string): string {
  const s = squash(name);
  if (s.startsWith('boe') || s.startsWith('boletinoficialdelestado')) return 'boe';
  if (s.startsWith('dogc') || s.includes('generalitatdecatalunya')) return 'dogc';
  if (s.startsWith('dogv') || s.startsWith('docv') || s.includes('comunitatvalenciana')) return 'dogv';
  if (s.startsWith('bop') || s.includes('oficialdelaprovincia')) return 'bop';
  if (s === 'diarioficial' || s === 'diariooficial' || s.startsWith('diarioficialdela') || s === 'butlletioficial')
    return 'regional';
  return s.slice(0, 4);
}

/**
 * The publication in the bulletin a text names: the earliest one there. A name that says only "diari
 * oficial" means the call's own regional bulletin: the earliest publication outside the BOE, when
 * all of them are in one bulletin.
 */
export function inBulletin(named: string, publications: Publication[]): Publication | null {
  const key = bulletinKey(named);
  const outsideBoe = publications.filter((p) => p.bulletin && bulletinKey(p.bulletin) !== 'boe');
  const candidates =
    key === 'regional'
      ? new Set(outsideBoe.map((p) => bulletinKey(p.bulletin!))).size === 1
        ? outsideBoe
        : []
      : publications.filter((p) => p.bulletin && bulletinKey(p.bulletin) === key);
  return earliest(candidates);
}

/** The earliest of some publications (a call published twice the same day: the first listed). */
export function earliest(list: Publication[]): Publication | null {
  return [...list].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))[0] ?? null;
}
