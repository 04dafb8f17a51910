/**
 * The playground's forms that change something: order (POST /explore/tasks/order), cancel and
 * dispute (POST /explore/tasks/:ref/cancel, /dispute). Each checks the session and the CSRF token
 * before reading a field, turns the form into the JSON body the human API takes (what was typed is
 * passed on as typed, so a bad value gets the API's own message), calls the API as the playground
 * key, and on success sends the browser to the task's page (303); on a refusal, shows the API's
 * status and message.
 *
 * An order carries the Idempotency-Key its form was rendered with: a second submit of the same form
 * replays the first answer (the same task); one that arrives while the first is still being written
 * gets 409 idempotency_key_in_flight, and is retried after the API's Retry-After, as a client should.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { html } from '../../lib/html.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import { dataOf, errorOf, type ApiAnswer } from './api.ts';
import { SECURITY_HEADERS } from '../console/layout.ts';
import { apiFailure, signInInvite } from './tasks-pages.ts';
import type { Playground } from './tasks-session.ts';

const IN_FLIGHT_RETRIES = 5;

const seeOther = (location: string): Reply => ({ status: 303, headers: { location, ...SECURITY_HEADERS } });

/** The order body from the form: spec.<name> text (blank left out), spec_flag.<name> checkboxes. */
export function orderBody(form: URLSearchParams): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  for (const [name, value] of form) {
    if (name.startsWith('spec.') && value.trim() !== '') spec[name.slice(5)] = value;
    if (name.startsWith('spec_flag.')) spec[name.slice(10)] = value === 'true';
  }
  const max = form.get('max_price_cents') ?? '';
  const optional = (name: string) => (form.get(name) ? { [name]: form.get(name) } : {});
  return {
    capability: form.get('capability') ?? '',
    spec,
    location: { country_iso: form.get('country_iso') ?? '', city_slug: form.get('city_slug') ?? '' },
    ...optional('sla'),
    // Digits become the integer the API takes; anything else is sent as typed, for the API to refuse.
    max_price_cents: /^\s*\d{1,15}\s*$/.test(max) ? Number(max) : max,
    ...optional('quote_id'),
  };
}

export function taskActions(pg: Playground) {
  const back = (ref?: string) =>
    ref
      ? html`<a href="/explore/tasks/${ref}">Back to the task</a>`
      : html`<a href="/explore/tasks">Back to the playground</a>`;

  return {
    async order(req: ApiRequest): Promise<Reply> {
      const player = pg.player(req);
      if (!player) return signInInvite(403);
      const form = await pg.readForm(req, player);
      const body = orderBody(form);
      const idempotencyKey = form.get('idempotency_key');
      const key = pg.orderingKey(player.account.id, req.now);
      let answer: ApiAnswer;
      for (let attempt = 0; ; attempt++) {
        answer = await pg.asKey(req, key, '/human/v1/tasks', {
          method: 'POST',
          body,
          headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
        });
        if (
          answer.status !== 409 ||
          errorOf(answer).code !== 'idempotency_key_in_flight' ||
          attempt >= IN_FLIGHT_RETRIES
        )
          break;
        await sleep(Math.min(1000, Number(answer.headers['retry-after'] ?? 1) * 1000));
      }
      if (answer.status !== 201) return apiFailure(answer, back());
      return seeOther(`/explore/tasks/${dataOf<{ ref: string }>(answer).ref}`);
    },

    async cancel(req: ApiRequest): Promise<Reply> {
      return act(req, 'cancel', (form) => (form.get('reason') ? { reason: form.get('reason') } : undefined));
    },

    async dispute(req: ApiRequest): Promise<Reply> {
      return act(req, 'dispute', (form) => ({
        reason: form.get('reason') ?? '',
        statement: form.get('statement') ?? '',
      }));
    },
  };

  async function act(
    req: ApiRequest,
    action: 'cancel' | 'dispute',
    toBody: (form: URLSearchParams) => unknown,
  ): Promise<Reply> {
    const player = pg.player(req);
    if (!player) return signInInvite(403);
    const form = await pg.readForm(req, player);
    const ref = req.params.ref ?? '';
    const key = pg.currentKey(player.account.id, req.now);
    if (!key)
      return apiFailure(
        {
          status: 404,
          headers: {},
          json: { error: { code: 'not_found', message: `No task ${ref} in your playground.` } },
        },
        back(),
      );
    const body = toBody(form);
    const answer = await pg.asKey(req, key, `/human/v1/tasks/${encodeURIComponent(ref)}/${action}`, {
      method: 'POST',
      ...(body === undefined ? {} : { body }),
    });
    if (answer.status !== 200) return apiFailure(answer, back(/^tsk_[0-9A-Za-z]{20}$/.test(ref) ? ref : undefined));
    return seeOther(`/explore/tasks/${dataOf<{ ref: string }>(answer).ref}`);
  }
}
