/**
 * What each e-mail says: a subject, a plain-text part and an HTML part, rendered at send time from the
 * data the outbox row keeps and the site's address (so a message queued by `funding import` on the
 * command line links to the address the server is reached at). English, and Spanish for the funding
 * messages of an account that chose it. Pure; every value in the HTML goes through lib/html.ts.
 */
import { html, type Html } from '../html.ts';

export type MailKind = 'verify' | 'reset' | 'alert' | 'digest' | 'task_offer' | 'dispute_outcome';
export type Locale = 'en' | 'es';

/** A call as an alert lists it. */
export interface AlertCall {
  id: string;
  title: string;
  funder: string | null;
  deadline: string | null;
}

export interface MailData {
  verify: { token: string | null; expires_at: number };
  reset: { token: string | null; expires_at: number };
  alert: { search: { id: string; name: string; query: string }; calls: AlertCall[]; unsubscribe: string };
  digest: {
    day: string;
    searches: Array<{ id: string; name: string; query: string; calls: AlertCall[] }>;
    unsubscribe: string;
  };
  task_offer: {
    ref: string;
    capability: string;
    place: string;
    price: string;
    accept_by: number | null;
    due_at: number;
    unsubscribe: string;
  };
  dispute_outcome: { ref: string; resolution: 'answer_stands' | 'refunded'; note: string | null; environment: string };
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  /** The one-click unsubscribe address (List-Unsubscribe), for the messages that have one. */
  unsubscribe: string | null;
}

const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';

function page(lang: Locale, body: Html): string {
  return html`<!doctype html><html lang="${lang}"><head><meta charset="utf-8"></head><body style="font-family:sans-serif;max-width:40em">${body}</body></html>`
    .value;
}

const WORDS = {
  en: {
    alertSubject: (name: string, n: number) => `${n} new call${n === 1 ? '' : 's'} for your search "${name}"`,
    digestSubject: (n: number, day: string) => `Your saved searches: ${n} new call${n === 1 ? '' : 's'} (${day})`,
    intro: (name: string) => `New funding calls match your saved search "${name}":`,
    digestIntro: 'New funding calls matched your saved searches since the last digest:',
    funder: 'Funder',
    deadline: 'Deadline',
    noDeadline: 'none stated',
    manage: 'Manage your saved searches',
    stop: 'Stop these e-mails',
    unsubscribeText: (url: string) => `To stop these e-mails, open ${url} (no sign-in needed).`,
  },
  es: {
    alertSubject: (name: string, n: number) =>
      `${n} ${n === 1 ? 'convocatoria nueva' : 'convocatorias nuevas'} para su búsqueda «${name}»`,
    digestSubject: (n: number, day: string) =>
      `Sus búsquedas guardadas: ${n} ${n === 1 ? 'convocatoria nueva' : 'convocatorias nuevas'} (${day})`,
    intro: (name: string) => `Hay convocatorias nuevas que coinciden con su búsqueda guardada «${name}»:`,
    digestIntro: 'Convocatorias nuevas que coinciden con sus búsquedas guardadas desde el último resumen:',
    funder: 'Convocante',
    deadline: 'Plazo',
    noDeadline: 'sin fecha indicada',
    manage: 'Gestionar sus búsquedas guardadas',
    stop: 'Dejar de recibir estos correos',
    unsubscribeText: (url: string) => `Para dejar de recibir estos correos, abra ${url} (sin iniciar sesión).`,
  },
} as const;

function callsText(lang: Locale, base: string, calls: AlertCall[]): string {
  const w = WORDS[lang];
  return calls
    .map(
      (c) =>
        `- ${c.title}\n  ${w.funder}: ${c.funder ?? '-'}\n  ${w.deadline}: ${c.deadline ?? w.noDeadline}\n  ${base}/explore/funding/calls/${encodeURIComponent(c.id)}`,
    )
    .join('\n\n');
}

function callsHtml(lang: Locale, base: string, calls: AlertCall[]): Html {
  const w = WORDS[lang];
  return html`<ul>${calls.map(
    (c) =>
      html`<li><a href="${base}/explore/funding/calls/${encodeURIComponent(c.id)}">${c.title}</a><br>${w.funder}: ${c.funder ?? '-'} · ${w.deadline}: ${c.deadline ?? w.noDeadline}</li>`,
  )}</ul>`;
}

type Renderers = { [K in MailKind]: (data: MailData[K], lang: Locale, base: string) => RenderedMail };

const RENDER: Renderers = {
  verify(d, _lang, base) {
    const link = `${base}/console/verify/${d.token ?? ''}`;
    return {
      subject: 'Confirm your e-mail address for the trio console',
      text: `Someone, probably you, created a trio account with this address.\n\nTo confirm it and sign in, open this link (it works once, until ${when(d.expires_at)}):\n\n${link}\n\nIf it was not you, ignore this message: the account cannot be used without this link.\n`,
      html: page(
        'en',
        html`<p>Someone, probably you, created a trio account with this address.</p><p><a href="${link}">Confirm your address</a> (the link works once, until ${when(d.expires_at)}).</p><p>If it was not you, ignore this message: the account cannot be used without this link.</p>`,
      ),
      unsubscribe: null,
    };
  },
  reset(d, _lang, base) {
    const link = `${base}/console/password/${d.token ?? ''}`;
    return {
      subject: 'Reset your trio console password',
      text: `Someone, probably you, asked to reset the password of the trio account with this address.\n\nTo choose a new password, open this link (it works once, until ${when(d.expires_at)}):\n\n${link}\n\nA new password signs the account out everywhere. If it was not you, ignore this message: nothing changes.\n`,
      html: page(
        'en',
        html`<p>Someone, probably you, asked to reset the password of the trio account with this address.</p><p><a href="${link}">Choose a new password</a> (the link works once, until ${when(d.expires_at)}).</p><p>A new password signs the account out everywhere. If it was not you, ignore this message: nothing changes.</p>`,
      ),
      unsubscribe: null,
    };
  },
  alert(d, lang, base) {
    const w = WORDS[lang];
    const unsubscribe = base + d.unsubscribe;
    return {
      subject: w.alertSubject(d.search.name, d.calls.length),
      text: `${w.intro(d.search.name)}\n\n${callsText(lang, base, d.calls)}\n\n${w.manage}: ${base}/console/saved-searches/${d.search.id}\n${w.unsubscribeText(unsubscribe)}\n`,
      html: page(
        lang,
        html`<p>${w.intro(d.search.name)}</p>${callsHtml(lang, base, d.calls)}<p><a href="${base}/console/saved-searches/${d.search.id}">${w.manage}</a> · <a href="${unsubscribe}">${w.stop}</a></p>`,
      ),
      unsubscribe,
    };
  },
  digest(d, lang, base) {
    const w = WORDS[lang];
    const unsubscribe = base + d.unsubscribe;
    const n = d.searches.reduce((sum, s) => sum + s.calls.length, 0);
    return {
      subject: w.digestSubject(n, d.day),
      text: `${w.digestIntro}\n\n${d.searches.map((s) => `${s.name}\n\n${callsText(lang, base, s.calls)}`).join('\n\n')}\n\n${w.manage}: ${base}/console/saved-searches\n${w.unsubscribeText(unsubscribe)}\n`,
      html: page(
        lang,
        html`<p>${w.digestIntro}</p>${d.searches.map((s) => html`<h2>${s.name}</h2>${callsHtml(lang, base, s.calls)}`)}<p><a href="${base}/console/saved-searches">${w.manage}</a> · <a href="${unsubscribe}">${w.stop}</a></p>`,
      ),
      unsubscribe,
    };
  },
  task_offer(d, _lang, base) {
    const unsubscribe = base + d.unsubscribe;
    const by = d.accept_by === null ? '' : ` Accept it by ${when(d.accept_by)}.`;
    return {
      subject: `A task is offered in ${d.place}: ${d.capability} (${d.price})`,
      text: `A task was ordered where you are on duty: ${d.capability} in ${d.place}, paying ${d.price}, due ${when(d.due_at)}.${by}\n\nSee it and accept it on your queue (task ${d.ref}): ${base}/console/worker#h-offered\n(Someone else may accept it first.)\n\nTo stop these e-mails, open ${unsubscribe} (no sign-in needed), or change it on ${base}/console/worker.\n`,
      html: page(
        'en',
        html`<p>A task was ordered where you are on duty: <strong>${d.capability}</strong> in ${d.place}, paying ${d.price}, due ${when(d.due_at)}.${by}</p><p><a href="${base}/console/worker#h-offered">See it and accept it</a> on your queue (task <code>${d.ref}</code>; someone else may accept it first).</p><p><a href="${unsubscribe}">Stop these e-mails</a></p>`,
      ),
      unsubscribe,
    };
  },
  dispute_outcome(d, _lang, base) {
    const stands = d.resolution === 'answer_stands';
    const outcome = stands
      ? 'the answer stands: the task is completed and its price was paid to the person who did it'
      : 'you were refunded: the price held for the task was released to your balance';
    return {
      subject: `Your dispute of task ${d.ref}: ${stands ? 'the answer stands' : 'refunded'}`,
      text: `The operator decided your dispute of task ${d.ref}: ${outcome}.${d.note ? `\n\nTheir note: ${d.note}` : ''}\n\nThe task: GET /human/v1/tasks/${d.ref} with a key of your account; its webhook event human.task.${stands ? 'completed' : 'refunded'} says the same. Your balance: ${base}/console/balance\n`,
      html: page(
        'en',
        html`<p>The operator decided your dispute of task <code>${d.ref}</code>: ${outcome}.</p>${d.note ? html`<p>Their note: ${d.note}</p>` : ''}<p><a href="${base}/console/balance">Your balance</a></p>`,
      ),
      unsubscribe: null,
    };
  },
};

export function renderMail<K extends MailKind>(kind: K, data: MailData[K], locale: Locale, base: string): RenderedMail {
  return (RENDER[kind] as (d: MailData[K], l: Locale, b: string) => RenderedMail)(data, locale, base);
}
