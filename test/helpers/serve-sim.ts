/**
 * Serves any one simulated service (src/sandbox/*) on 127.0.0.1 at a free port, below a path
 * prefix, with a request log and fault injection. A stand-in for `startSandbox()` that does not
 * need the other simulators; requests are read off the wire exactly as the sandbox server does,
 * and the faults have the same names and meaning as the sandbox's `Fault`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { SandboxRequest, SandboxResponse, SimulatedService } from '../../src/sandbox/types.ts';

/**
 * - `latency`: wait `ms`, then handle normally.
 * - `status`: answer `status` with `body` (default `{ message: 'Injected failure' }`) without handling.
 * - `timeout`: handle the request (its side effects happen, like a slow provider) and never answer.
 * - `timeout-before`: never answer, without handling.
 * - `malformed`: answer 200 with the text `raw` (default broken JSON) without handling.
 * - `reset`: destroy the connection without answering, after handling (default) or before.
 */
export type SimFault =
  | { kind: 'latency'; ms: number }
  | { kind: 'status'; status: number; body?: unknown }
  | { kind: 'timeout' }
  | { kind: 'timeout-before' }
  | { kind: 'malformed'; raw?: string }
  | { kind: 'reset'; afterHandling?: boolean };

export interface SimFaultRule {
  /** Exact path below the prefix, e.g. `/transaction`; any path when omitted. */
  path?: string;
  /** How many matching requests it applies to; default 1, `Infinity` for all. */
  times?: number;
  fault: SimFault;
}

export interface ServeSimOptions {
  /** Path prefix the service lives under, e.g. `/reseller/api/v1`. Stripped before `handle`. */
  prefix: string;
  /** Called for every request before the fault rules; a fault it returns wins over them. */
  onRequest?: (request: SandboxRequest) => SimFault | undefined | Promise<SimFault | undefined>;
}

export interface ServedSim<S extends SimulatedService> {
  /** Base URL of the service, ending in the prefix, e.g. `http://127.0.0.1:40123/reseller/api/v1`. */
  url: string;
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  sim: S;
  /** Every request received below the prefix, in order, including faulted ones. */
  received: SandboxRequest[];
  /** Adds a fault rule; returns a function that removes it. Rules are consumed in order. */
  inject(rule: SimFaultRule): () => void;
  /** Drops every rule not yet consumed. */
  clearFaults(): void;
  close(): Promise<void>;
}

/** Starts `sim` on 127.0.0.1 on a free port below `options.prefix`. */
export async function serveSim<S extends SimulatedService>(sim: S, options: ServeSimOptions): Promise<ServedSim<S>> {
  const prefix = options.prefix.replace(/\/+$/, '');
  const received: SandboxRequest[] = [];
  let rules: Array<SimFaultRule & { left: number }> = [];
  const sockets = new Set<Socket>();

  const takeFault = (path: string): SimFault | undefined => {
    const rule = rules.find((r) => r.left > 0 && (r.path === undefined || r.path === path));
    if (!rule) return undefined;
    rule.left -= 1;
    return rule.fault;
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const rawBody = await readBody(req);
    if (url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) {
      return write(res, { status: 404, body: { message: 'No simulated service at this path' } });
    }
    const request = toRequest(req, url, prefix, rawBody);
    received.push(request);

    const fault = (await options.onRequest?.(request)) ?? takeFault(request.path);
    if (fault?.kind === 'latency') await new Promise((resolve) => setTimeout(resolve, fault.ms));
    if (fault?.kind === 'status') return write(res, { status: fault.status, body: fault.body ?? { message: 'Injected failure' } });
    if (fault?.kind === 'malformed') return write(res, { status: 200, raw: fault.raw ?? '{"data": [oops' });
    if (fault?.kind === 'timeout-before') return;
    if (fault?.kind === 'reset' && fault.afterHandling === false) return void req.socket.destroy();

    const response = await sim.handle(request);
    if (fault?.kind === 'timeout') return;
    if (fault?.kind === 'reset') return void req.socket.destroy();
    write(res, response);
  }

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) write(res, { status: 500, body: { message: `Sandbox error: ${String(error)}` } });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: origin + prefix,
    origin,
    sim,
    received,
    inject(rule) {
      const entry = { ...rule, left: rule.times ?? 1 };
      rules.push(entry);
      return () => {
        rules = rules.filter((r) => r !== entry);
      };
    },
    clearFaults() {
      rules = [];
    },
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

/** Reads a request the way src/sandbox/server.ts does. */
function toRequest(req: IncomingMessage, url: URL, prefix: string, rawBody: string): SandboxRequest {
  const contentType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  let body: unknown;
  if (contentType === 'application/json') {
    try {
      body = JSON.parse(rawBody);
    } catch {
      body = undefined;
    }
  } else if (contentType === 'application/x-www-form-urlencoded') {
    body = Object.fromEntries(new URLSearchParams(rawBody));
  }
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return {
    method: req.method ?? 'GET',
    path: url.pathname.slice(prefix.length) || '/',
    query: url.searchParams,
    headers,
    contentType,
    rawBody,
    body,
    ip: (req.socket.remoteAddress ?? '').replace(/^::ffff:/, ''),
  };
}

function write(res: ServerResponse, response: SandboxResponse): void {
  const text = response.raw ?? JSON.stringify(response.body ?? {});
  res.writeHead(response.status, {
    'Content-Type': response.raw === undefined ? 'application/json' : 'text/plain; charset=utf-8',
    ...response.headers,
  });
  res.end(text);
}
