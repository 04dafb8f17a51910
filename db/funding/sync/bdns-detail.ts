/**
 * One BDNS call's detail, `GET <base>/convocatorias?numConv=N&vpd=GE`, read and imported: the one
 * way the sync reads a detail, whether its list entry changed (./bdns.ts) or its deadline may have
 * (./bdns-reread.ts). The detail's body hash is kept with its URL: a detail read again unchanged is
 * not re-imported. When it was read is kept per call (funding_sync_items.seen_at), with the list
 * entry's fingerprint when the entry led to the read.
 */
import { answerValidators, SyncError, type SourceRun } from './context.ts';

export const detailUrl = (base: string, id: string) => `${base}/convocatorias?numConv=${encodeURIComponent(id)}&vpd=GE`;

/** Reads and imports the detail of call `id`; true when it changed what was stored. */
export async function readDetail(run: SourceRun, id: string, fingerprint: string | null): Promise<boolean> {
  const url = detailUrl(run.config.urls.bdns, id);
  const what = `BDNS detail of call ${id}`;
  const res = await run.fetch(what, url, { headers: { accept: 'application/json' } }, false);
  if (res.status === 404) throw new SyncError(`${what} (${url}): the detail answered 404`);
  const { validators, bodySha, unchanged } = answerValidators(res);
  const seen = () => {
    run.state.setValidators(url, { ...validators, body_sha256: bodySha }, run.now());
    run.state.touchItem('bdns', id, fingerprint, run.now());
  };
  if (unchanged) {
    run.counts.skipped++;
    run.commit(seen);
    return false;
  }
  const [s] = run.importBatch([{ name: url, text: res.body.toString('utf8'), what }], seen);
  return s!.inserted + s!.updated > 0;
}
