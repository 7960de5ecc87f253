import { createServer } from 'node:net';

/**
 * Below Linux's ephemeral range (32768–60999): a port the system handed out and took back could be
 * given at once to one of the run's own outgoing connections (PostgreSQL, HTTP) as its source port,
 * and the server started on it then met EADDRINUSE (seen in a fleet lab).
 */
const range = { from: 20_000, to: 32_000 };

/** Whether nothing listens on `port` of the loopback now. */
async function isFree(port: number): Promise<boolean> {
  const server = createServer();
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (listening) await new Promise<void>((resolve) => server.close(() => resolve()));
  return listening;
}

/** A loopback port nothing listens on right now (for a server the test starts itself, whose port must be known first). */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = range.from + Math.floor(Math.random() * (range.to - range.from));
    if (await isFree(port)) return port;
  }
  throw new Error(`freePort: no free loopback port found between ${range.from} and ${range.to}`);
}
