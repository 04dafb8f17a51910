/**
 * The one check every e-mail address passes before it can reach a message header (issue 35: "an
 * address with a newline or a second address never reaches a header"). valibot's `email` accepts one
 * plain address: letters, digits and `_ + - .` before the @, a domain with a dot; no spaces, line
 * breaks, commas, quotes, angle brackets or display names, so nothing in it can start another header
 * or name a second recipient. Addresses outside it (a quoted local part, non-ASCII letters) are
 * refused for mail rather than encoded: rare, and the safe side.
 */
import * as v from 'valibot';

export const mailAddress = v.pipe(
  v.string('An e-mail address is text.'),
  v.maxLength(254, 'An e-mail address has at most 254 characters.'),
  v.email('That is not one plain e-mail address (letters, digits and . _ + - before the @; no spaces or commas).'),
);

/** The address if it may be written to a header, else null. */
export function safeMailAddress(value: string): string | null {
  const parsed = v.safeParse(mailAddress, value);
  return parsed.success ? parsed.output : null;
}
