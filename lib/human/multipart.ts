/**
 * A small multipart/form-data parser (RFC 7578) for the console's delivery form, the one place trio
 * takes file uploads. Written rather than added as a dependency: the form is ours, the parts are few,
 * the whole body is already in memory under a size limit, and what is needed is ~60 lines of
 * Buffer.indexOf. Refuses anything malformed (MultipartError, a 400 to the caller).
 */

export interface Part {
  name: string;
  filename: string | null;
  contentType: string | null;
  data: Buffer;
}

export class MultipartError extends Error {}

export function boundaryOf(contentType: string | undefined): string | null {
  const m = /^multipart\/form-data\s*;(?:.*;)?\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType ?? '');
  return m ? (m[1] ?? m[2])! : null;
}

export function parseMultipart(body: Buffer, boundary: string, maxParts = 64): Part[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const next = Buffer.from(`\r\n--${boundary}`);
  let at = body.indexOf(delimiter);
  if (at === -1) throw new MultipartError('The form body has no parts.');
  at += delimiter.length;
  const parts: Part[] = [];
  for (;;) {
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return parts; // closing delimiter "--"
    if (body[at] !== 0x0d || body[at + 1] !== 0x0a)
      throw new MultipartError('The form body is malformed (a boundary is not followed by a line break).');
    const headersEnd = body.indexOf('\r\n\r\n', at + 2);
    if (headersEnd === -1) throw new MultipartError('The form body is malformed (a part has no end of headers).');
    const headers = parseHeaders(body.toString('utf8', at + 2, headersEnd));
    const end = body.indexOf(next, headersEnd + 4);
    if (end === -1) throw new MultipartError('The form body is cut short (a part has no closing boundary).');
    const disposition = headers.get('content-disposition') ?? '';
    const name = param(disposition, 'name');
    if (!/^form-data\b/i.test(disposition) || name === null) throw new MultipartError('A form part has no name.');
    parts.push({
      name,
      filename: param(disposition, 'filename'),
      contentType: headers.get('content-type') ?? null,
      data: body.subarray(headersEnd + 4, end),
    });
    if (parts.length > maxParts) throw new MultipartError(`The form has more than ${maxParts} parts.`);
    at = end + next.length;
  }
}

function parseHeaders(block: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) out.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return out;
}

/** A parameter of Content-Disposition: name="x" (browsers escape a quote in it as %22). */
function param(header: string, key: string): string | null {
  const m =
    new RegExp(`(?:^|;)\\s*${key}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(header) ??
    new RegExp(`(?:^|;)\\s*${key}=([^;\\s"]+)`, 'i').exec(header);
  return m ? m[1]!.replace(/\\(.)/g, '$1').replace(/%22/g, '"') : null;
}
