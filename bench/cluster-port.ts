/** A free TCP port on 127.0.0.1, for a cluster (its workers cannot share a port 0 the parent could read). */
import { once } from 'node:events';
import { createServer } from 'node:net';

export async function freePortFor(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  server.close();
  await once(server, 'close');
  return port;
}
