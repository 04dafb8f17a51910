/**
 * JSON logs with pino. Redaction is a second line of defence: no code path logs a key, a password or
 * a cookie in the first place (the adapter logs the path without its query string).
 *
 * The access line, one per request, is the one line on the hot path: `accessLog` writes it in pino's
 * own format, to the logger's own destination, without pino's general path (a serializer and a
 * redaction pass over an object built per request: 7 µs of 20 µs of trio's own work on a light
 * request, BENCHMARKS.md "The cost of one request"). Its fields are fixed and none can hold a secret
 * (the path's keys are cut by the adapter, the request id is a token that is not a key), so the
 * redaction pass has nothing to do on it. tests/lib/http/log.test.ts holds it to pino's own output.
 */
import pino, { type DestinationStream, type Logger } from 'pino';

/** pino's isoTime, formatted once per millisecond: under load many lines share one. */
function isoTimeOncePerMs(): () => string {
  let at = -1;
  let formatted = '';
  return () => {
    const now = Date.now();
    if (now !== at) {
      at = now;
      formatted = `,"time":"${new Date(now).toISOString()}"`;
    }
    return formatted;
  };
}

/**
 * Standard output, written in batches: lines gather in memory and go out together every 50 ms, or
 * once 8 KB have gathered, or at once behind a line of level warn or above (so an error is never held
 * back, and never overtakes the lines before it). One write a line cost 20 µs of CPU a request under
 * load (a hop to libuv's thread pool and back per write, for a few lines each); batched, 1 to 2 µs
 * (BENCHMARKS.md, "The cost of one request"). What is gathered is written at exit, and by `flush()`
 * (app.stop calls it); a process killed outright loses at most the last 50 ms, as pino's asynchronous
 * destination could lose what it had not written. A batch stays under the 16 KB pino writes at once.
 */
class BatchedOutput {
  private pending: string[] = [];
  private size = 0;
  private readonly out: ReturnType<typeof pino.destination>;

  constructor(fd: number) {
    this.out = pino.destination({ dest: fd, sync: false });
    setInterval(() => this.drain(), 50).unref();
    process.once('exit', () => {
      this.drain();
      try {
        this.out.flushSync();
      } catch {
        // not open yet, or already gone: nothing more can be written
      }
    });
  }

  write(line: string): boolean {
    this.pending.push(line);
    this.size += line.length;
    // pino's lines start '{"level":NN': 40 (warn), 50 (error) and 60 (fatal) go out at once.
    if (this.size >= 8192 || (line.charCodeAt(9) >= 52 && line.startsWith('{"level":'))) this.drain();
    return true;
  }

  flush(done?: (err?: Error) => void): void {
    this.drain();
    this.out.flush(done);
  }

  private drain(): void {
    if (this.pending.length === 0) return;
    const lines = this.pending.length === 1 ? this.pending[0]! : this.pending.join('');
    this.pending = [];
    this.size = 0;
    this.out.write(lines);
  }
}

let stdout: BatchedOutput | undefined;

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: isoTimeOncePerMs(),
      redact: {
        paths: [
          'key',
          'password',
          'cookie',
          'headers.authorization',
          'headers["x-api-key"]',
          'headers.cookie',
          '*.key',
          '*.password',
        ],
        censor: '[redacted]',
      },
    },
    destination ?? (stdout ??= new BatchedOutput(1)),
  );
}

/** The fields of an access line, in the order they are written. */
export interface AccessFields {
  reqId: string;
  method: string;
  path: string;
  status: number;
  ms: number;
  ip: string;
  service: string | undefined;
  /** A 503 unserved: the dependency's state tells the rest. */
  refused: string | undefined;
}

type PinoInternals = Record<symbol, unknown>;

const INFO = 30;

/**
 * The access line writer for a logger: `{"level":30,"time":…,<bindings>,"reqId":…,…,"msg":"request"}`,
 * exactly what `log.info(fields, 'request')` writes. A logger configured in a way this does not
 * reproduce (a mixin, a log formatter, a nested key, hooks, a transport that wants metadata) gets
 * `log.info` itself.
 */
export function accessLog(log: Logger): (fields: AccessFields) => void {
  const s = pino.symbols;
  const internals = log as unknown as PinoInternals;
  const stream = internals[s.streamSym] as { write(line: string): unknown } & Record<symbol, unknown>;
  const formatters = internals[s.formattersSym] as { log?: unknown } | undefined;
  const hooks = internals[s.hooksSym] as { streamWrite?: unknown; logMethod?: unknown } | undefined;
  const plain =
    stream !== undefined &&
    stream[s.needsMetadataGsym] !== true &&
    !formatters?.log &&
    !internals[s.mixinSym] &&
    !internals[s.nestedKeySym] &&
    !internals[(s as unknown as Record<string, symbol>).msgPrefixSym!] &&
    !hooks?.streamWrite &&
    !hooks?.logMethod &&
    internals[s.messageKeySym] === 'msg' &&
    typeof (internals[s.lsCacheSym] as Record<number, string> | undefined)?.[INFO] === 'string';
  if (!plain) return (fields) => log.info(fields, 'request');
  const str = JSON.stringify;
  return (f) => {
    if (!log.isLevelEnabled('info')) return;
    const time = (internals[s.timeSym] as () => string).call(log);
    stream.write(
      (internals[s.lsCacheSym] as Record<number, string>)[INFO]! +
        time +
        (internals[s.chindingsSym] as string) +
        `,"reqId":${str(f.reqId)},"method":${str(f.method)},"path":${str(f.path)},"status":${f.status},"ms":${Number.isFinite(f.ms) ? f.ms : null},"ip":${str(f.ip)}` +
        (f.service === undefined ? '' : `,"service":${str(f.service)}`) +
        (f.refused === undefined ? '' : `,"refused":${str(f.refused)}`) +
        ',"msg":"request"' +
        (internals[s.endSym] as string),
    );
  };
}
