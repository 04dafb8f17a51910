/**
 * JSON logs with pino. Redaction is a second line of defence: no code path logs a key, a password or
 * a cookie in the first place (the adapter logs the path without its query string).
 */
import pino, { type DestinationStream, type Logger } from 'pino';

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
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
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
