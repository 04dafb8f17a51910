/**
 * The explorer's page shell: server-rendered, readable without JavaScript, with the console's
 * security headers (no inline script or style; charts are inline SVG, which needs neither).
 */
import { html, type Html } from '../../lib/html.ts';
import type { Reply } from '../../lib/http/types.ts';
import { SECURITY_HEADERS } from '../console/layout.ts';

export interface PageOptions {
  status?: number;
  title: string;
  body: Html;
  /** Set-Cookie values to send (the tasks playground's session cookies). */
  setCookies?: string[];
  /** Explorer pages are cacheable only when they say so; the default is the console's no-store. */
  cacheControl?: string;
}

export function explorePage(options: PageOptions): Reply {
  const doc = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · trio explorer</title>
<link rel="stylesheet" href="/explore/assets/explore.css">
</head>
<body>
<header><a class="brand" href="/explore">trio explorer</a>
<nav aria-label="Explorer"><a href="/explore/impact">Impact</a> <a href="/explore/funding">Funding</a> <a href="/explore/tasks">Tasks</a> <a href="/console">Console</a></nav></header>
<main id="main">
<h1>${options.title}</h1>
${options.body}
</main>
<footer><p>Every figure on these pages comes from trio's public APIs; each page links the API call it shows.</p></footer>
</body>
</html>
`;
  return {
    status: options.status ?? 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      ...SECURITY_HEADERS,
      ...(options.cacheControl ? { 'cache-control': options.cacheControl } : {}),
      ...(options.setCookies?.length ? { 'set-cookie': options.setCookies } : {}),
    },
    body: doc.value,
  };
}
