/**
 * GET /methodology/{code}: the methodology document itself, as Markdown, so that `links.document` of
 * /methodology and the bill-of-materials source links (docs/methodology/v1.md#…) resolve on this
 * server (issue 14). The bytes served are the ones whose SHA-256 /methodology lists: the file is read
 * once and checked against the register's digest; a file that changed since the register was loaded is
 * not served as that version (a logged 500). Not an envelope: a document, with its digest as ETag.
 */
import { CACHEABLE_HEADERS } from '../../lib/http/contract-headers.ts';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { ROOT } from '../../db/impact/load.ts';
import { notFound } from '../../lib/http/errors.ts';
import { impactError } from './errors.ts';
import { defineOperation } from '../../lib/http/operation.ts';
import type { Reply } from '../../lib/http/types.ts';
import { stringParam } from '../../lib/validate.ts';
import { conditionalReply } from './cache.ts';
import { IMPACT_BASE } from './links.ts';
import type { ImpactDeps } from './serve.ts';

const params = v.object({
  code: stringParam({
    max: 20,
    pattern: /^[a-z0-9]+$/,
    accepts: 'a methodology version code such as v1 (see /methodology)',
    description: 'Methodology version code, as /methodology lists it (e.g. v1).',
  }),
});

export function methodologyDocumentOperation(deps: Pick<ImpactDeps, 'register' | 'log'>, root = ROOT) {
  const read = new Map<string, Buffer>();
  return defineOperation({
    spec: {
      method: 'GET',
      path: '/methodology/:code',
      operationId: 'getMethodologyDocument',
      summary: 'A methodology document',
      description:
        'The methodology document of a version, as Markdown: the bytes whose SHA-256 /methodology lists as document_sha256. Sections are linked by #anchor (e.g. #the-demo-data-set).',
      params,
      responses: {
        200: {
          description: 'The document (text/markdown).',
          contentType: 'text/markdown',
          schema: v.string(),
          headers: CACHEABLE_HEADERS,
        },
        304: {
          description: "Not modified: the If-None-Match tag is the document's digest.",
          headers: CACHEABLE_HEADERS,
        },
      },
    },
    handle(req, { params: { code } }): Reply {
      const version = deps.register.methodologyDocument(code);
      if (!version)
        throw notFound(`No methodology version '${code}'. The versions are listed by ${IMPACT_BASE}/methodology.`);
      let body = read.get(version.document_sha256);
      if (!body) {
        const bytes = readFileSync(join(root, version.document_path));
        const digest = createHash('sha256').update(bytes).digest('hex');
        if (digest !== version.document_sha256) {
          deps.log.error(
            { reqId: req.id, code, path: version.document_path, digest, registered: version.document_sha256 },
            'impact: the methodology document changed since the register was loaded',
          );
          throw impactError(
            'internal_error',
            `The document of methodology ${code} is not the one the register lists, so it is not served. Quote request id ${req.id} when reporting it.`,
          );
        }
        read.set(version.document_sha256, (body = bytes));
      }
      const etag = `"${version.document_sha256}"`;
      const headers = {
        'content-type': 'text/markdown; charset=utf-8',
        etag,
        'cache-control': 'public, max-age=3600',
        'x-content-type-options': 'nosniff',
      };
      return conditionalReply(req, headers, body);
    },
  });
}
