/**
 * Who is at the tasks playground and how it reaches the human API for them.
 *
 * - The visitor is the console's signed-in account (its session cookie, path /); the playground has
 *   no sign-in of its own.
 * - Its forms carry a CSRF token: an HMAC of the session token under a server secret. Only signed-in
 *   visitors post forms here, so binding the token to the session alone is enough (a cross-site page
 *   can make the browser send the cookie but can neither read it nor compute the token), and it needs
 *   no cookie of its own.
 * - The human API needs a key, and keys are stored hashed, so the playground cannot borrow one of the
 *   user's. It uses the account's own sandbox key named "Explorer playground", made (read and write
 *   scopes, test environment) at the first order and listed, rotatable and revocable in the console
 *   like any key; its secret is discarded at once. Its calls are marked in process as made by that key
 *   (routes/human/in-process-caller.ts), so the API checks and counts them as it would that key's.
 */
import { createKey, listKeys, type KeyRow } from '../../db/accounts.ts';
import { serverSecret } from '../../db/sessions.ts';
import { csrfToken, csrfValid } from '../../lib/csrf.ts';
import { HttpError } from '../../lib/http/errors.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import type { AppContext } from '../context.ts';
import { markInProcessCaller } from '../human/in-process-caller.ts';
import type { ApiAnswer, ApiCall, ApiCallOptions } from './api.ts';
import { signedInVisitor, type Visitor } from './visitor.ts';

export const PLAYGROUND_KEY_NAME = 'Explorer playground';
const CSRF_SCOPE = 'explore-tasks';

export interface Player extends Visitor {
  /** The token this visitor's forms carry. */
  csrf: string;
}

export function playground(ctx: AppContext, api: ApiCall) {
  const visitor = signedInVisitor(ctx);
  const secret = serverSecret(ctx.db, 'explore-csrf');

  const keysOf = (accountId: number): KeyRow[] =>
    listKeys(ctx.db, { accountId, service: 'human' })
      .filter((k) => k.name === PLAYGROUND_KEY_NAME && k.environment === 'test')
      .sort((a, b) => b.id - a.id);
  const usable = (k: KeyRow, now: number) =>
    (k.revoked_at === null || k.revoked_at > now) && (k.expires_at === null || k.expires_at > now);

  return {
    /** The signed-in visitor, or null. */
    player(req: ApiRequest): Player | null {
      const signedIn = visitor(req);
      return signedIn && { ...signedIn, csrf: csrfToken(secret, CSRF_SCOPE, signedIn.sessionToken) };
    },

    /** A playground form: urlencoded only, the CSRF token checked before any field is read. */
    async readForm(req: ApiRequest, player: Player): Promise<URLSearchParams> {
      const type = String(req.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim()
        .toLowerCase();
      if (type !== 'application/x-www-form-urlencoded') {
        throw new HttpError(415, 'unsupported_media_type', 'Forms are sent as application/x-www-form-urlencoded.');
      }
      const form = new URLSearchParams((await req.body()).toString('utf8'));
      if (!csrfValid(secret, CSRF_SCOPE, player.sessionToken, form.get('csrf'))) {
        throw new HttpError(
          403,
          'csrf',
          'This form has expired or did not come from this site. Reload the page and try again. Nothing was done.',
        );
      }
      return form;
    },

    /**
     * The playground key to read with: the newest usable one, else the newest (revoked: the API then
     * says so), else none (the account has never ordered here).
     */
    currentKey(accountId: number, now: number): KeyRow | undefined {
      const keys = keysOf(accountId);
      return keys.find((k) => usable(k, now)) ?? keys[0];
    },

    /** The key to order with: the newest usable one, made now if there is none. */
    orderingKey(accountId: number, now: number): KeyRow {
      return ctx.db
        .transaction(() => {
          const found = keysOf(accountId).find((k) => usable(k, now));
          if (found) return found;
          // The secret is dropped here: the playground's calls are marked in process instead.
          return createKey(
            ctx.db,
            {
              accountId,
              service: 'human',
              name: PLAYGROUND_KEY_NAME,
              environment: 'test',
              scopes: ['tasks:read', 'tasks:write'],
            },
            now,
          ).row;
        })
        .immediate();
    },

    /** A call to the human API made as the playground key. */
    asKey(req: ApiRequest, key: KeyRow, target: string, options: ApiCallOptions = {}): Promise<ApiAnswer> {
      return api(req, target, { ...options, prepare: (inner) => markInProcessCaller(inner, key.id) });
    },
  };
}

export type Playground = ReturnType<typeof playground>;
