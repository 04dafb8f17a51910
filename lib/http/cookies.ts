/** Reading the Cookie header and writing Set-Cookie (RFC 6265), for the console's session. */

export function readCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    // The first value of a name wins: a later duplicate may have been planted for a wider path.
    if (!cookies.has(name)) cookies.set(name, part.slice(at + 1).trim());
  }
  return cookies;
}

export interface CookieOptions {
  maxAgeSeconds?: number;
  secure: boolean;
  path?: string;
}

/** HttpOnly and SameSite=Lax always; Secure when the site is served over https. */
export function setCookie(name: string, value: string, options: CookieOptions): string {
  return [
    `${name}=${value}`,
    `Path=${options.path ?? '/'}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(options.maxAgeSeconds !== undefined ? [`Max-Age=${options.maxAgeSeconds}`] : []),
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}

export const clearCookie = (name: string, secure: boolean) => setCookie(name, '', { secure, maxAgeSeconds: 0 });
