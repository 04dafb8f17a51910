/**
 * A cookie-keeping client for the console's forms, without a browser: fetches a page, reads its CSRF
 * token, posts forms as a browser would (urlencoded, same cookies), does not follow redirects. It
 * goes through `server.request`: over the socket, or in-process when the server was started so.
 */
import type { TestResponse, TestServer } from './server.ts';

export class ConsoleClient {
  cookies = new Map<string, string>();
  constructor(
    private readonly server: TestServer,
    private readonly address = '127.0.0.1',
  ) {}

  private cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private remember(res: TestResponse) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (/Max-Age=0/.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async get(path: string) {
    const res = await this.server.request('GET', path, {
      headers: { cookie: this.cookieHeader() },
      redirect: 'manual',
    });
    this.remember(res);
    return { status: res.status, headers: res.headers, text: res.text };
  }

  /** The CSRF token of the first form on a page. */
  static csrf(page: string): string {
    const match = /name="csrf" value="([^"]+)"/.exec(page);
    if (!match) throw new Error('no CSRF token on the page');
    return match[1]!;
  }

  async post(
    path: string,
    fields: Record<string, string | string[]>,
    options: { csrfFrom?: string; contentType?: string } = {},
  ) {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) body.append(k, one);
    if (options.csrfFrom !== undefined && !('csrf' in fields))
      body.set('csrf', ConsoleClient.csrf((await this.get(options.csrfFrom)).text));
    const res = await this.server.request('POST', path, {
      headers: {
        cookie: this.cookieHeader(),
        'content-type': options.contentType ?? 'application/x-www-form-urlencoded',
      },
      body: body.toString(),
      redirect: 'manual',
    });
    this.remember(res);
    return { status: res.status, headers: res.headers, text: res.text };
  }

  async signUp(email: string, password = 'a long enough password') {
    return this.post('/console/sign-up', { email, password }, { csrfFrom: '/console/sign-up' });
  }

  async signIn(email: string, password = 'a long enough password') {
    return this.post('/console/sign-in', { email, password }, { csrfFrom: '/console/sign-in' });
  }

  /** Creates a key through the console and returns it (read from the shown-once page). */
  async createKey(service: string, name: string, extra: Record<string, string | string[]> = {}) {
    const res = await this.post('/console/keys', { service, name, ...extra }, { csrfFrom: '/console/keys' });
    const key = /id="new-key" readonly value="([^"]+)"/.exec(res.text)?.[1];
    return { ...res, key };
  }
}
