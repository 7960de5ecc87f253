/**
 * Serves the game shop simulator alone on loopback, with the request log and the few faults the
 * game shop tests need. A stand-in for `startSandbox()` (src/sandbox/server.ts) that does not
 * depend on the other two simulators; its surface mirrors the sandbox's so tests can switch.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createGameshopSim, type GameshopSim, type GameshopSimOptions } from '../../src/sandbox/gameshop.ts';
import type { SandboxRequest } from '../../src/sandbox/types.ts';

export const gameshopPrefix = '/gameshop/api';

export type GameshopFault =
  | { kind: 'status'; status: number; body?: unknown }
  | { kind: 'malformed'; raw?: string }
  /** Handle the request (side effects happen) and never answer. */
  | { kind: 'timeout' };

export interface ServedGameshop {
  /** Base URL of the API, ending in `/gameshop/api`. */
  url: string;
  sim: GameshopSim;
  /** Every request received, in order, including faulted ones. */
  received: SandboxRequest[];
  /** Applies `fault` to the next `times` (default 1) requests to `path` (any path when omitted). */
  inject(rule: { path?: string; times?: number; fault: GameshopFault }): void;
  /** Drops every fault not yet consumed. */
  clearFaults(): void;
  close(): Promise<void>;
}

/** Starts the simulator on 127.0.0.1 on a free port. */
export async function serveGameshop(options: GameshopSimOptions = {}): Promise<ServedGameshop> {
  const sim = createGameshopSim(options);
  const received: SandboxRequest[] = [];
  const rules: Array<{ path?: string; left: number; fault: GameshopFault }> = [];
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    void (async () => {
      const rawBody = await readBody(req);
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (!url.pathname.startsWith(gameshopPrefix)) {
        res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"message":"No simulated service at this path"}');
        return;
      }
      const request = toRequest(req, url, rawBody);
      received.push(request);
      const rule = rules.find((r) => r.left > 0 && (r.path === undefined || r.path === request.path));
      if (rule) rule.left -= 1;
      const fault = rule?.fault;
      if (fault?.kind === 'status') {
        res.writeHead(fault.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(fault.body ?? { message: 'Injected failure' }));
        return;
      }
      if (fault?.kind === 'malformed') {
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end(fault.raw ?? '{"success": true, "games": [oops');
        return;
      }
      const response = await sim.handle(request);
      if (fault?.kind === 'timeout') return;
      res.writeHead(response.status, { 'Content-Type': 'application/json', ...response.headers });
      res.end(response.raw ?? JSON.stringify(response.body ?? {}));
    })();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${gameshopPrefix}`,
    sim,
    received,
    inject: ({ path, times, fault }) => void rules.push({ path, left: times ?? 1, fault }),
    clearFaults: () => void rules.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function toRequest(req: IncomingMessage, url: URL, rawBody: string): SandboxRequest {
  const contentType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  let body: unknown;
  if (contentType === 'application/json') {
    try {
      body = JSON.parse(rawBody);
    } catch {
      body = undefined;
    }
  }
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return {
    method: req.method ?? 'GET',
    path: url.pathname.slice(gameshopPrefix.length) || '/',
    query: url.searchParams,
    headers,
    contentType,
    rawBody,
    body,
    ip: req.socket.remoteAddress ?? '',
  };
}
