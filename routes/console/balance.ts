/**
 * /console/balance: the account's prepaid balance for live human tasks (available, and held for
 * orders in progress) and its ledger, newest first, 50 entries a page: the same figures as
 * GET /human/v1/balance and /ledger. Top-ups: through Stripe Checkout when the site has Stripe set up
 * (routes/console/billing.ts), and by the operator (`balance credit`) either way.
 */
import { balanceOf, ledgerEntries } from '../../db/human/ledger.ts';
import { html } from '../../lib/html.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import type { AppContext } from '../context.ts';
import { page, redirect } from './layout.ts';
import { stateOf } from './state.ts';
import { topUpSection, withStripeForms } from './billing.ts';

const PAGE = 50;
const euros = (cents: number) => `${cents < 0 ? '−' : ''}€${(Math.abs(cents) / 100).toFixed(2)}`;
const signed = (cents: number) => (cents === 0 ? '' : cents > 0 ? `+${euros(cents)}` : euros(cents));
const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';

const KIND: Record<string, string> = {
  credit: 'Top-up',
  debit: 'Paid back (refund or dispute)',
  hold: 'Held for an order',
  capture: 'Paid (task completed)',
  release: 'Released back',
};

export function balanceRoutes(ctx: AppContext) {
  return {
    show(req: ApiRequest): Reply {
      const state = stateOf(req);
      if (!state.account) return redirect(state, '/console/sign-in');
      const before =
        typeof req.query.before === 'string' && /^\d{1,15}$/.test(req.query.before) ? Number(req.query.before) : null;
      const balance = balanceOf(ctx.db, state.account.id);
      const rows = ledgerEntries(ctx.db, state.account.id, { before, limit: PAGE + 1 });
      const entries = rows.slice(0, PAGE);
      const older = rows.length > PAGE ? entries[entries.length - 1]!.id : null;
      const reply = page(
        state,
        200,
        'Your balance',
        html`
<p class="balance">Available: <strong data-available="${balance.available_cents}">${euros(balance.available_cents)}</strong>.
Held for ${balance.open_holds} order(s) in progress: <strong data-held="${balance.held_cents}">${euros(balance.held_cents)}</strong>.</p>
<p>A live order (a <code>ho_live_</code> key) holds its price here until the task completes (then it is paid) or is cancelled, fails, expires or is refunded (then it comes back). Sandbox orders move no money.</p>
${topUpSection(ctx, state.account.id, state.csrf, req.query)}
${balance.payable_cents > 0 ? html`<p>Owed to you for tasks you did: <strong>${euros(balance.payable_cents)}</strong>.</p>` : ''}
<section aria-labelledby="h-ledger"><h2 id="h-ledger">Ledger</h2>
${
  entries.length === 0
    ? html`<p>No entries yet.</p>`
    : html`<div class="table"><table>
<thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Task</th><th scope="col">Available</th><th scope="col">Held</th><th scope="col">Available after</th></tr></thead>
<tbody>${entries.map(
        (e) => html`<tr>
<td data-label="When">${when(e.created_at)}</td><td data-label="What">${KIND[e.kind] ?? e.kind}</td>
<td data-label="Task">${e.task_ref ? html`<code>${e.task_ref}</code>` : '—'}</td>
<td data-label="Available">${signed(e.available_change)}</td><td data-label="Held">${signed(e.held_change)}</td>
<td data-label="Available after">${euros(e.available_after)}</td></tr>`,
      )}</tbody></table></div>`
}
${older !== null ? html`<p><a href="/console/balance?before=${older}">Older entries</a></p>` : ''}
${before !== null ? html`<p><a href="/console/balance">Newest entries</a></p>` : ''}
</section>`,
      );
      return withStripeForms(reply, ctx.billing);
    },
  };
}
