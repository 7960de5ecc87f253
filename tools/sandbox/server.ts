import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { SandboxRequest, SandboxResponse, SimulatedService } from './types.ts';
import { createResellerSim, type ResellerSim, type ResellerSimOptions } from './reseller.ts';
import { createMarketplaceSim, type MarketplaceSim, type MarketplaceSimOptions } from './marketplace.ts';
import { createGameshopSim, type GameshopSim, type GameshopSimOptions } from './gameshop.ts';

export type SandboxServiceName = 'reseller' | 'marketplace' | 'gameshop';

/** Path prefixes under which each simulated service is served. */
export const servicePrefixes: Record<SandboxServiceName, string> = {
  reseller: '/reseller/api/v1',
  marketplace: '/marketplace',
  gameshop: '/gameshop/api',
};

/**
 * A fault to inject into matching requests. Faults are consumed in order; `times` (default 1)
 * says how many matching requests it applies to (`Infinity` for all).
 * - `latency`: wait `ms` before handling normally.
 * - `status`: answer `status` with `body` (default `{ message: 'Injected failure' }`) without handling.
 * - `timeout`: accept the request, handle it (so side effects happen, like a real slow provider), never answer.
 * - `timeout-before`: accept the request and never answer, without handling it.
 * - `malformed`: answer 200 with `raw` (default a broken JSON text) without handling.
 * - `reset`: destroy the connection without answering, after handling (`afterHandling`, default) or before.
 */
export type Fault =
  | { kind: 'latency'; ms: number }
  | { kind: 'status'; status: number; body?: unknown }
  | { kind: 'timeout' }
  | { kind: 'timeout-before' }
  | { kind: 'malformed'; raw?: string }
  | { kind: 'reset'; afterHandling?: boolean };

export interface FaultRule {
  service?: SandboxServiceName;
  /** Exact path below the service prefix, e.g. `/transaction`. */
  path?: string;
  times?: number;
  fault: Fault;
}

export interface ReceivedRequest extends SandboxRequest {
  service: SandboxServiceName;
  at: number;
}

export interface SandboxOptions {
  port?: number;
  host?: string;
  reseller?: ResellerSimOptions;
  marketplace?: MarketplaceSimOptions;
  gameshop?: GameshopSimOptions;
}

export interface Sandbox {
  /** Base URL of the server, e.g. `http://127.0.0.1:8787`. */
  url: string;
  urls: Record<SandboxServiceName, string>;
  reseller: ResellerSim;
  marketplace: MarketplaceSim;
  gameshop: GameshopSim;
  /** Every request received, in order (including faulted ones). */
  received: ReceivedRequest[];
  /** Adds a fault rule; returns a function that removes it. */
  inject(rule: FaultRule): () => void;
  clearFaults(): void;
  close(): Promise<void>;
}

/** Starts the three simulated providers on one loopback HTTP server. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const services: Record<SandboxServiceName, SimulatedService> & {
    reseller: ResellerSim;
    marketplace: MarketplaceSim;
    gameshop: GameshopSim;
  } = {
    reseller: createResellerSim(options.reseller),
    marketplace: createMarketplaceSim(options.marketplace),
    gameshop: createGameshopSim(options.gameshop),
  };
  const received: ReceivedRequest[] = [];
  let rules: Array<FaultRule & { left: number }> = [];
  const sockets = new Set<Socket>();

  const takeFault = (service: SandboxServiceName, path: string): Fault | undefined => {
    const rule = rules.find((r) => r.left > 0 && (!r.service || r.service === service) && (!r.path || r.path === path));
    if (!rule) return undefined;
    rule.left -= 1;
    return rule.fault;
  };

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) write(res, { status: 500, body: { message: `Sandbox error: ${String(error)}` } });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox.local');
    const match = (Object.keys(servicePrefixes) as SandboxServiceName[]).find(
      (name) => url.pathname === servicePrefixes[name] || url.pathname.startsWith(`${servicePrefixes[name]}/`),
    );
    const rawBody = await readBody(req);
    if (!match) {
      if (url.pathname === '/health') return write(res, { status: 200, body: { ok: true } });
      if (url.pathname.startsWith(controlPrefix)) return write(res, control(services.reseller, req.method ?? 'GET', url.pathname, rawBody));
      return write(res, { status: 404, body: { message: 'No simulated service at this path' } });
    }
    const request = parseRequest(req, url, servicePrefixes[match], rawBody);
    received.push({ ...request, service: match, at: Date.now() });

    const fault = takeFault(match, request.path);
    if (fault?.kind === 'latency') await new Promise((resolve) => setTimeout(resolve, fault.ms));
    if (fault?.kind === 'status') return write(res, { status: fault.status, body: fault.body ?? { message: 'Injected failure' } });
    if (fault?.kind === 'malformed') return write(res, { status: 200, raw: fault.raw ?? '{"data": [oops' });
    if (fault?.kind === 'timeout-before') return; // keep the socket open, never answer
    if (fault?.kind === 'reset' && fault.afterHandling === false) return void req.socket.destroy();

    const response = await services[match].handle(request);
    if (fault?.kind === 'timeout') return;
    if (fault?.kind === 'reset') return void req.socket.destroy();
    write(res, response);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;

  return {
    url,
    urls: {
      reseller: url + servicePrefixes.reseller,
      marketplace: url + servicePrefixes.marketplace,
      gameshop: url + servicePrefixes.gameshop,
    },
    reseller: services.reseller,
    marketplace: services.marketplace,
    gameshop: services.gameshop,
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

/**
 * The demo's handle on the reseller price list (not part of any provider's API), so a price
 * change can be shown without a test: `PATCH /_control/reseller/products/<code>` with
 * `{"price": 11000}` and/or `{"status": "gangguan"}`, `POST /_control/reseller/products` with a
 * whole product (code, name, price, status, brand, category), `DELETE …/products/<code>`.
 * The sandbox only listens on loopback by default.
 */
export const controlPrefix = '/_control/reseller/products';

function control(reseller: ResellerSim, method: string, pathname: string, rawBody: string): SandboxResponse {
  const code = decodeURIComponent(pathname.slice(controlPrefix.length).replace(/^\//, ''));
  try {
    const body: unknown = rawBody.trim() === '' ? {} : JSON.parse(rawBody);
    if (method === 'PATCH' && code) reseller.setProduct(code, body as { price?: number; status?: string });
    else if (method === 'POST' && !code) reseller.addProduct(body as Parameters<ResellerSim['addProduct']>[0]);
    else if (method === 'DELETE' && code) reseller.removeProduct(code);
    else return { status: 405, body: { message: 'Use PATCH or DELETE …/products/<code>, or POST …/products with a product.' } };
  } catch (error) {
    return { status: 400, body: { message: error instanceof Error ? error.message : String(error) } };
  }
  return { status: 200, body: { products: reseller.products().length } };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseRequest(req: IncomingMessage, url: URL, prefix: string, rawBody: string): SandboxRequest {
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
