/**
 * /console/worker: the task queue of a person an operator verified (`worker verify`). They see the
 * live tasks pending in their areas and accept one (only one person gets it: a compare-and-set), mark
 * it started, then deliver an answer, a confidence and evidence (photo or PDF uploads, see
 * lib/human/uploads.ts for the limits), or say they cannot do it. What they are paid is their share of
 * the price (db/human/ledger.ts), owed once the task completes.
 */
import { csrfValid } from '../../lib/csrf.ts';
import { html, type Html } from '../../lib/html.ts';
import { HttpError } from '../../lib/http/errors.ts';
import { isHumanError } from '../../lib/human/errors.ts';
import { humanEdgeError, humanHttpError } from '../human/errors.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import { definition, resultFields } from '../../lib/human/capabilities.ts';
import { FORM, fieldValue, readDelivery } from '../../lib/human/delivery-form.ts';
import { boundaryOf, MultipartError, parseMultipart } from '../../lib/human/multipart.ts';
import { MAX_FILE_BYTES, MAX_FILES, MAX_UPLOAD_BODY_BYTES } from '../../lib/human/uploads.ts';
import { acceptTask, cannotDo, deliverTask, startTask } from '../../db/human/work.ts';
import { WORKER_SHARE_BPS, balanceOf } from '../../db/human/ledger.ts';
import { taskByRef, type TaskRow } from '../../db/human/tasks.ts';
import { isVerified, offeredTasks, workerOf, workerTasks } from '../../db/human/workers.ts';
import type { AppContext } from '../context.ts';
import { readForm, readLargeBody } from './form.ts';
import { dutySection } from './duty.ts';
import { notice, page, redirect } from './layout.ts';
import { stateOf, type ConsoleState } from './state.ts';

const when = (ms: number | null) =>
  ms === null ? '—' : new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
const euros = (cents: number) => `€${(cents / 100).toFixed(2)}`;
const pay = (task: TaskRow) => euros(Math.floor((task.price_cents * WORKER_SHARE_BPS) / 10_000));

function specList(task: TaskRow): Html {
  const spec = JSON.parse(task.spec) as Record<string, unknown>;
  return html`<dl class="spec">${Object.entries(spec).map(([k, v]) => html`<dt>${k}</dt><dd>${String(v)}</dd>`)}</dl>`;
}

function taskRows(tasks: TaskRow[], action: (t: TaskRow) => Html): Html {
  return html`<div class="table"><table>
<thead><tr><th scope="col">Task</th><th scope="col">What</th><th scope="col">Where</th><th scope="col">Due</th><th scope="col">Status</th><th scope="col">You earn</th><th scope="col">Actions</th></tr></thead>
<tbody>${tasks.map(
    (t) => html`<tr>
<td data-label="Task"><code>${t.ref}</code></td><td data-label="What">${t.capability}${specList(t)}</td>
<td data-label="Where">${t.city_slug}, ${t.country_iso}</td><td data-label="Due">${when(t.due_at)}</td>
<td data-label="Status">${t.status}</td><td data-label="You earn">${pay(t)}</td><td data-label="Actions">${action(t)}</td></tr>`,
  )}</tbody></table></div>`;
}

function deliverForm(state: ConsoleState, task: TaskRow): Html {
  const def = definition(task.capability)!;
  const accept = ['image/jpeg', 'image/png', 'image/webp', ...(def.evidence.documents ? ['application/pdf'] : [])].join(
    ',',
  );
  const field = (f: ReturnType<typeof resultFields>[number]) => {
    const name = FORM.answer(f.name);
    if (f.kind === 'text')
      return html`<label for="${name}">${f.label}</label><textarea id="${name}" name="${name}" required maxlength="${f.maxLength}" rows="4"></textarea>`;
    const options =
      f.kind === 'yesno'
        ? [
            ['yes', 'Yes'],
            ['no', 'No'],
          ]
        : f.options.map((o) => [o, o.replace(/_/g, ' ')]);
    return html`<fieldset><legend>${f.label}</legend>${options.map(([value, label]) => html`<label><input type="radio" name="${name}" value="${value}" required> ${label}</label> `)}</fieldset>`;
  };
  return html`<h2 id="deliver">Deliver</h2>
<form method="post" action="/console/worker/tasks/${task.ref}/deliver" enctype="multipart/form-data" class="stack" aria-labelledby="deliver">
  <input type="hidden" name="csrf" value="${state.csrf}">
  ${resultFields(task.capability).map(field)}
  <label for="confidence">Confidence (%)</label>
  <input id="confidence" name="confidence" type="number" min="0" max="100" step="1" required>
  <label for="note">Note (optional)</label><textarea id="note" name="note" maxlength="4000" rows="3"></textarea>
  <label for="files">${def.evidence.minPhotos > 0 ? `Photos (at least ${def.evidence.minPhotos})` : 'Photos or a PDF scan'}</label>
  <input id="files" name="files" type="file" accept="${accept}" multiple ${def.evidence.minPhotos > 0 ? 'required' : ''}>
  <p class="hint">JPEG, PNG or WebP${def.evidence.documents ? ', or PDF' : ''}; up to ${MAX_FILES} files of ${MAX_FILE_BYTES / 1_048_576} MiB each. Where and when a JPEG was taken is read from the photo when it says.</p>
  <fieldset><legend>Where you were (if your photos do not say)</legend>
    <label for="latitude">Latitude</label> <input id="latitude" name="latitude" inputmode="decimal" size="10">
    <label for="longitude">Longitude</label> <input id="longitude" name="longitude" inputmode="decimal" size="10">
    <label for="accuracy_m">Accuracy (m)</label> <input id="accuracy_m" name="accuracy_m" inputmode="decimal" size="6">
  </fieldset>
  <button type="submit">Deliver</button>
</form>
<h2 id="cannot">Cannot do it?</h2>
<form method="post" action="/console/worker/tasks/${task.ref}/cannot-do" class="stack" aria-labelledby="cannot">
  <input type="hidden" name="csrf" value="${state.csrf}">
  <label for="reason">Why not</label><textarea id="reason" name="reason" required minlength="5" maxlength="1000" rows="3"></textarea>
  <button type="submit" class="danger">I cannot do this task</button>
</form>`;
}

export function workerRoutes(ctx: AppContext, secret: Buffer) {
  const svc = ctx.human;
  const signedIn = (req: ApiRequest) => stateOf(req).account;
  const mine = (req: ApiRequest, accountId: number): TaskRow => {
    const task = taskByRef(ctx.db, String(req.params.ref ?? ''));
    if (!task || task.environment !== 'live' || task.worker_account_id !== accountId)
      throw new HttpError(404, 'not_found', 'No such task of yours.');
    return task;
  };

  const taskPage = (req: ApiRequest, task: TaskRow, status = 200, problem?: string): Reply => {
    const state = stateOf(req);
    const actions =
      task.status === 'dispatched'
        ? html`<form method="post" action="/console/worker/tasks/${task.ref}/start"><input type="hidden" name="csrf" value="${state.csrf}"><button type="submit">I am on it: start</button></form>`
        : task.status === 'in_progress'
          ? deliverForm(state, task)
          : notice(
              'info',
              task.status === 'delivered'
                ? "Delivered. You are paid when the client's review window closes."
                : `This task is ${task.status}.`,
            );
    return page(
      state,
      status,
      `${task.capability} in ${task.city_slug}`,
      html`${problem ? notice('error', problem) : ''}
<p>Task <code>${task.ref}</code>: <strong>${task.capability}</strong> in ${task.city_slug}, ${task.country_iso}. Due ${when(task.due_at)}. Status: <strong data-status="${task.status}">${task.status}</strong>. You earn ${pay(task)}.</p>
${specList(task)}
${actions}
<p><a href="/console/worker">Back to your queue</a></p>`,
    );
  };

  /** Runs a worker action; a refusal re-renders the task page with the problem instead of a dead end. */
  const act = async (req: ApiRequest, task: TaskRow, run: () => Promise<unknown>): Promise<Reply> => {
    try {
      await run();
    } catch (thrown) {
      const err = humanEdgeError(thrown);
      if (err instanceof HttpError && err.status < 500)
        return taskPage(req, taskByRef(ctx.db, task.ref)!, err.status, err.message);
      throw err;
    }
    return redirect(stateOf(req), `/console/worker/tasks/${task.ref}`);
  };

  return {
    queue(req: ApiRequest): Reply {
      const account = signedIn(req);
      const state = stateOf(req);
      if (!account) return redirect(state, '/console/sign-in');
      const worker = workerOf(ctx.db, account.id);
      if (!isVerified(worker)) {
        return page(
          state,
          200,
          'Work on tasks',
          html`<p>People verified by the operator of this site take tasks here: they go where a task is, look, and report with photos.</p>
${notice('info', 'Your account is not verified for tasks. The operator verifies people with the command `worker verify`.')}`,
        );
      }
      const own = workerTasks(ctx.db, account.id);
      const open = own.filter((t) => t.status === 'dispatched' || t.status === 'in_progress');
      const done = own.filter((t) => t.status !== 'dispatched' && t.status !== 'in_progress').slice(0, 20);
      const offered = offeredTasks(ctx.db, account.id, req.now);
      const areas = worker.areas
        .map((a) => (a.city_slug === '*' ? `${a.country_iso} (all cities)` : `${a.city_slug}, ${a.country_iso}`))
        .join('; ');
      return page(
        state,
        200,
        'Your task queue',
        html`<p>You work in: ${areas}. Owed to you so far: <strong>${euros(balanceOf(ctx.db, account.id).payable_cents)}</strong>.</p>
${dutySection(state, worker, req.now, ctx.config.mail.transport !== null)}
<section aria-labelledby="h-yours"><h2 id="h-yours">Your tasks</h2>
${open.length ? taskRows(open, (t) => html`<a href="/console/worker/tasks/${t.ref}">Open ${t.ref}</a>`) : html`<p>None in hand.</p>`}</section>
<section aria-labelledby="h-offered"><h2 id="h-offered">Offered to you</h2>
${offered.length ? taskRows(offered, (t) => html`<form method="post" action="/console/worker/tasks/${t.ref}/accept" class="inline"><input type="hidden" name="csrf" value="${state.csrf}"><button type="submit" aria-label="Accept ${t.ref}">Accept</button></form>`) : html`<p>Nothing waiting in your areas right now.</p>`}</section>
<section aria-labelledby="h-done"><h2 id="h-done">Recently finished</h2>
${done.length ? taskRows(done, (t) => html`<a href="/console/worker/tasks/${t.ref}">View</a>`) : html`<p>Nothing yet.</p>`}</section>`,
      );
    },

    show(req: ApiRequest): Reply {
      const account = signedIn(req);
      if (!account) return redirect(stateOf(req), '/console/sign-in');
      return taskPage(req, mine(req, account.id));
    },

    async accept(req: ApiRequest): Promise<Reply> {
      const account = signedIn(req);
      if (!account) return redirect(stateOf(req), '/console/sign-in');
      await readForm(req, stateOf(req), secret);
      try {
        await acceptTask(svc, account.id, String(req.params.ref ?? ''), req.now);
      } catch (err) {
        if (isHumanError(err) && err.code === 'invalid_state')
          throw humanHttpError('invalid_state', 'Someone else took this task first, or it is no longer open.');
        throw err;
      }
      return redirect(stateOf(req), `/console/worker/tasks/${String(req.params.ref)}`);
    },

    async start(req: ApiRequest): Promise<Reply> {
      const account = signedIn(req);
      if (!account) return redirect(stateOf(req), '/console/sign-in');
      await readForm(req, stateOf(req), secret);
      const task = mine(req, account.id);
      return act(req, task, () => startTask(svc, account.id, task.ref, req.now));
    },

    async cannotDo(req: ApiRequest): Promise<Reply> {
      const account = signedIn(req);
      if (!account) return redirect(stateOf(req), '/console/sign-in');
      const form = await readForm(req, stateOf(req), secret);
      const task = mine(req, account.id);
      return act(req, task, () => cannotDo(svc, account.id, task.ref, form.get('reason') ?? '', req.now));
    },

    async deliver(req: ApiRequest): Promise<Reply> {
      const account = signedIn(req);
      const state = stateOf(req);
      if (!account) return redirect(state, '/console/sign-in');
      const boundary = boundaryOf(String(req.headers['content-type'] ?? ''));
      if (!boundary)
        throw new HttpError(415, 'unsupported_media_type', 'The delivery form is sent as multipart/form-data.');
      const body = await readLargeBody(req, MAX_UPLOAD_BODY_BYTES);
      let parts;
      try {
        parts = parseMultipart(body, boundary);
      } catch (err) {
        if (err instanceof MultipartError) throw new HttpError(400, 'bad_request', err.message);
        throw err;
      }
      // CSRF before anything else in the form is looked at.
      if (!csrfValid(secret, state.visitor, state.sessionToken, fieldValue(parts, FORM.csrf))) {
        throw new HttpError(
          403,
          'csrf',
          'This form has expired or did not come from this site. Reload the page and try again.',
        );
      }
      const task = mine(req, account.id);
      return act(req, task, () =>
        deliverTask(svc, account.id, task.ref, readDelivery(task.capability, parts), req.now),
      );
    },
  };
}
