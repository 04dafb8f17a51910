/**
 * The provenance rows of a register (impact_provenance): each distinct (source, release, basis,
 * method, file) once, numbered in the order the build first asks for it, so the same files always
 * give the same ids (and the same register hash). Register rows point at them by id. Pure.
 */
import type { Basis } from '../basis.ts';

export interface ProvenanceSpec {
  source: string;
  /** the release the value was read from; null for authored inputs */
  release: string | null;
  basis: Basis;
  /** derived: the formula; assumption: the rationale; published: a unit conversion, if any */
  method: string | null;
  /** the file under data/impact/ (or fixtures/impact/) the value was read from */
  file: string | null;
}

export interface ProvenanceRow extends ProvenanceSpec {
  id: number;
}

export class ProvenanceTable {
  private readonly ids = new Map<string, number>();
  private readonly list: ProvenanceRow[] = [];

  id(spec: ProvenanceSpec): number {
    const key = JSON.stringify([spec.source, spec.release, spec.basis, spec.method, spec.file]);
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.list.length + 1;
      this.ids.set(key, id);
      this.list.push({ id, ...spec });
    }
    return id;
  }

  basisOf(id: number): Basis {
    return this.list[id - 1]!.basis;
  }

  rows(): ProvenanceRow[] {
    return this.list.map((r) => ({ ...r }));
  }
}
