/**
 * CSRF tokens for the console's forms. Every visitor has a random `trio_csrf` cookie; a form carries
 * HMAC(server secret, cookie + session). A cross-site page can make the browser send the cookie but
 * cannot read it or the page, so it cannot produce the field. Binding the session in means a token
 * from before sign-in stops working after it. Pure: the secret is passed in.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export function csrfToken(secret: Buffer, visitor: string, session: string | null): string {
  return createHmac('sha256', secret)
    .update(`${visitor}|${session ?? ''}`)
    .digest('base64url');
}

export function csrfValid(
  secret: Buffer,
  visitor: string | undefined,
  session: string | null,
  presented: unknown,
): boolean {
  if (!visitor || typeof presented !== 'string') return false;
  const expected = Buffer.from(csrfToken(secret, visitor, session));
  const actual = Buffer.from(presented);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
