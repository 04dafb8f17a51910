/**
 * A real SMTP server for the tests (the smtp-server package, on an ephemeral port): it receives what
 * trio sends over SMTP and parses each message with mailparser, as a mail client would. `refuse`
 * decides, per message received (counting from 1), to answer with an SMTP error instead of 250: a
 * 4xx ("try later") or a 5xx ("never").
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface Received {
  envelope: { from: string; to: string[] };
  raw: string;
  mail: ParsedMail;
}

export interface TestSmtp {
  url: string;
  port: number;
  received: Received[];
  /** How many DATA commands arrived (refused ones included). */
  attempts: number;
  refuse: ((attempt: number) => { code: number; message: string } | null) | null;
  /** Resolves when `n` messages were received. */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const state: TestSmtp = {
    url: '',
    port: 0,
    received: [],
    attempts: 0,
    refuse: null,
    async waitFor(n, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (state.received.length < n) {
        if (Date.now() > until) throw new Error(`expected ${n} messages, received ${state.received.length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return state.received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        state.attempts++;
        const refusal = state.refuse?.(state.attempts) ?? null;
        if (refusal) {
          const err = new Error(refusal.message) as Error & { responseCode: number };
          err.responseCode = refusal.code;
          callback(err);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        void simpleParser(raw).then((mail) => {
          state.received.push({
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
            },
            raw,
            mail,
          });
          callback();
        });
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  state.port = (server as unknown as { server: { address(): AddressInfo } }).server.address().port;
  state.url = `smtp://127.0.0.1:${state.port}`;
  return state;
}

/** The first link in a message's text that starts with `prefix` (a path on the test server). */
export function linkIn(received: Received, prefix: string): string {
  const match = new RegExp(`https?://[^\\s]+${prefix.replace(/\//g, '\\/')}[^\\s]*`).exec(received.mail.text ?? '');
  if (!match) throw new Error(`no link to ${prefix} in: ${received.mail.text}`);
  return match[0];
}

/** A header as it was sent (unfolded), by name; mailparser turns the List-* headers into objects. */
export function rawHeader(received: Received, name: string): string | undefined {
  const line = received.mail.headerLines.find((h) => h.key === name.toLowerCase())?.line;
  return line
    ?.slice(line.indexOf(':') + 1)
    .replace(/\r?\n[ \t]+/g, ' ')
    .trim();
}
