/**
 * Going on and off duty (/console/worker): a verified person on duty counts as available in coverage
 * and quotes, and live orders in their areas and capabilities are taken (issue 26; who counts:
 * lib/human/availability.ts). On duty for some hours, or until they go off; off duty, live orders
 * where nobody else is on duty are refused instead of held for nobody. With mail configured (issue
 * 35) they may also choose to be e-mailed when a task is offered where they are on duty
 * (db/human/offer-mail.ts).
 */
import { html, type Html } from '../../lib/html.ts';
import { HttpError } from '../../lib/http/errors.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import { isVerified, setDuty, workerOf, type Worker } from '../../db/human/workers.ts';
import { setOfferMail } from '../../db/human/offer-mail.ts';
import type { AppContext } from '../context.ts';
import { readForm } from './form.ts';
import { redirect } from './layout.ts';
import { stateOf, type ConsoleState } from './state.ts';

const CHOICES: Array<[string, string]> = [
  ['2', 'for 2 hours'],
  ['4', 'for 4 hours'],
  ['8', 'for 8 hours'],
  ['open', 'until I go off duty'],
];

const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';

/** With mail configured: whether task offers are e-mailed, and the form to change it. */
function offerMailForm(state: ConsoleState, worker: Worker): Html {
  const on = worker.offer_mail === 1;
  return html`<form method="post" action="/console/worker/offer-mail" class="inline">
  <input type="hidden" name="csrf" value="${state.csrf}"><input type="hidden" name="offer_mail" value="${on ? 'off' : 'on'}">
  <span data-offer-mail="${on ? 'on' : 'off'}">${on ? 'New tasks where you are on duty are e-mailed to you (to a confirmed address).' : 'New tasks are not e-mailed to you.'}</span>
  <button type="submit">${on ? 'Stop e-mailing me tasks' : 'E-mail me new tasks while I am on duty'}</button>
</form>`;
}

/** Whether the person is on duty now, and the form to change it. */
export function dutySection(state: ConsoleState, worker: Worker, now: number, mail = false): Html {
  const onDuty = worker.on_duty === 1 && (worker.on_duty_until === null || worker.on_duty_until > now);
  const capabilities = worker.capabilities === null ? 'every capability' : worker.capabilities.split(' ').join(', ');
  return html`<section aria-labelledby="h-duty"><h2 id="h-duty">On duty</h2>
<p data-on-duty="${onDuty ? 'yes' : 'no'}">${
    onDuty
      ? html`You are <strong>on duty</strong>${worker.on_duty_until === null ? '' : html` until ${when(worker.on_duty_until)}`}: clients see someone available in your areas (${capabilities}), and live orders there wait for you.`
      : html`You are <strong>off duty</strong>: clients are told nobody is available in your areas unless someone else is on duty, and live orders there are refused.`
  }</p>
<form method="post" action="/console/worker/duty" class="inline">
  <input type="hidden" name="csrf" value="${state.csrf}">
  ${
    onDuty
      ? html`<input type="hidden" name="duty" value="off"><button type="submit">Go off duty</button>`
      : html`<label for="duty">Go on duty</label> <select id="duty" name="duty">${CHOICES.map(([v, label]) => html`<option value="${v}">${label}</option>`)}</select> <button type="submit">Go on duty</button>`
  }
</form>${mail ? offerMailForm(state, worker) : ''}</section>`;
}

export function offerMailRoute(ctx: AppContext, secret: Buffer) {
  return async (req: ApiRequest): Promise<Reply> => {
    const state = stateOf(req);
    if (!state.account) return redirect(state, '/console/sign-in');
    const form = await readForm(req, state, secret);
    if (!isVerified(workerOf(ctx.db, state.account.id)))
      throw new HttpError(403, 'forbidden_scope', 'Only people verified by the operator are offered tasks.');
    const choice = form.get('offer_mail');
    if (choice !== 'on' && choice !== 'off') throw new HttpError(400, 'bad_request', 'offer_mail is on or off.');
    setOfferMail(ctx.db, state.account.id, choice === 'on');
    return redirect(state, '/console/worker');
  };
}

export function dutyRoute(ctx: AppContext, secret: Buffer) {
  return async (req: ApiRequest): Promise<Reply> => {
    const state = stateOf(req);
    if (!state.account) return redirect(state, '/console/sign-in');
    const form = await readForm(req, state, secret);
    if (!isVerified(workerOf(ctx.db, state.account.id)))
      throw new HttpError(403, 'forbidden_scope', 'Only people verified by the operator go on duty.');
    const choice = form.get('duty') ?? '';
    if (choice === 'off') setDuty(ctx.db, state.account.id, false, null);
    else if (choice === 'open') setDuty(ctx.db, state.account.id, true, null);
    else if (/^(2|4|8)$/.test(choice)) setDuty(ctx.db, state.account.id, true, req.now + Number(choice) * 3_600_000);
    else
      throw new HttpError(400, 'bad_request', 'Choose how long you are on duty: 2, 4 or 8 hours, or until you go off.');
    return redirect(state, '/console/worker');
  };
}
