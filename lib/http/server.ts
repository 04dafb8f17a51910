/**
 * Starts node:http with the adapter's listener and the timeouts a public server needs, and stops it
 * gracefully: no new connections, idle keep-alive sockets closed, in-flight requests finished (up to
 * a grace period), then the caller closes the database.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerEveryMethod } from './any-method.ts';

export interface ServerLimits {
  headersTimeoutMs: number; // all request headers must arrive within this (slow-header clients)
  requestTimeoutMs: number; // the whole request, body included
  keepAliveTimeoutMs: number; // an idle keep-alive socket is closed after this
  maxHeaderBytes: number;
  /**
   * How often node looks for sockets past headersTimeout/requestTimeout. Node's default (30 s) would
   * let a slow-header client hold a socket for up to 40 s, not the 10 s we promise.
   */
  checkIntervalMs: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxHeaderBytes: 16_384,
  checkIntervalMs: 1_000,
};

export interface RunningServer {
  server: Server;
  port: number;
  url: string;
  /** Stops accepting, finishes in-flight requests (at most graceMs), resolves when all are done. */
  stop(graceMs?: number): Promise<void>;
}

export async function listen(
  listener: Parameters<typeof createServer>[1],
  host: string,
  port: number,
  limits: ServerLimits = DEFAULT_LIMITS,
  /** Every client error node answers itself (a slow client's 408): lib/http/any-method.ts. */
  onClientError?: (code: string) => void,
): Promise<RunningServer> {
  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderBytes,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
    listener,
  );
  if (listener) answerEveryMethod(server, listener, onClientError); // CONNECT and unknown methods get an answer, not a closed socket
  server.headersTimeout = limits.headersTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    port: address.port,
    url: `http://${shownHost}:${address.port}`,
    stop: (graceMs = 10_000) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        // A keep-alive socket whose request was in flight turns idle when it is answered: close it
        // then, instead of waiting for the client (or keepAliveTimeoutMs) to let it go.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        sweep.unref();
        server.close(() => {
          clearTimeout(force);
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
