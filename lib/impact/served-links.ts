/**
 * Links in a response must resolve on this server (issue 14). The register names the methodology
 * document by its repository path (docs/methodology/v1.md, what the loader hashes); the server serves
 * it at <base>/methodology/v1. This maps such a path, with its #section, to the served address; an
 * absolute http(s) address (a source's homepage) is left as it is. Pure.
 */
const DOCUMENT = /^docs\/methodology\/([a-z0-9][a-z0-9.-]*)\.md(#[A-Za-z0-9._-]*)?$/;

export function methodologyDocumentPath(base: string, code: string): string {
  return `${base}/methodology/${encodeURIComponent(code)}`;
}

export function servedLink(url: string, base: string): string;
export function servedLink(url: string | null, base: string): string | null;
export function servedLink(url: string | null, base: string): string | null {
  if (url === null) return null;
  const m = DOCUMENT.exec(url);
  return m ? methodologyDocumentPath(base, m[1]!) + (m[2] ?? '') : url;
}
