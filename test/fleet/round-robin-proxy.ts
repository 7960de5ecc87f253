/**
 * A round-robin HTTP reverse proxy for the fleet tests: what a load balancer in front of several
 * bot instances does (Caddy's `lb_policy round_robin` in compose.yaml), small enough to read.
 *
 * - Each request (any method, path, headers, body streamed) goes to the next target in turn.
 * - A target that could not have seen the request is skipped and the next one tried, each target
 *   at most once per request: the connection was refused (an instance killed with kill -9, or
 *   stopped), or failed in any other way before it was established. The request body is only
 *   read once a connection stands, so nothing of it is lost to a refused target.
 * - Once a connection stands the request may have been handled, so it is never sent again: a
 *   connection that dies before the answer (a reset, a hang-up) gives 502, as a real load
 *   balancer does, and Telegram re-delivers an update on any non-2xx answer.
 * - Targets marked down (`setDown`) are skipped without being tried; no target left gives 502.
 *
 * Every upstream request has a connection of its own (no keep-alive pool), so "refused" always
 * means the target is not listening, never a stale pooled socket.
 */
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type ClientRequest, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RoundRobinProxyOptions {
  /** Base URLs of the instances, like `http://127.0.0.1:4001` (a path prefix is kept). */
  targets: string[];
  /** Interface to listen on; the port is always 0 (a free one). Default 127.0.0.1. */
  host?: '127.0.0.1';
}

export interface RoundRobinProxy {
  /** Where it listens, like `http://127.0.0.1:40123`. */
  url: string;
  /** Stops listening, ends every open connection and every request in flight to a target. */
  close(): Promise<void>;
  /** Requests forwarded to each target (a connection established and the request sent), by index. */
  counts(): number[];
  /** Marks a target down (skipped without being tried) or up again. */
  setDown(index: number, down: boolean): void;
}

/** Hop-by-hop headers (RFC 9110 7.6.1): about one connection, never forwarded. */
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase()),
  );
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !hopByHop.has(name) && !named.has(name)));
}

export async function startRoundRobinProxy(options: RoundRobinProxyOptions): Promise<RoundRobinProxy> {
  if (options.targets.length === 0) throw new RangeError('startRoundRobinProxy: no targets');
  const targets = options.targets.map((base) => {
    const url = new URL(base);
    if (url.protocol !== 'http:') throw new RangeError(`startRoundRobinProxy: only http:// targets (${base})`);
    return { hostname: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 80), prefix: url.pathname.replace(/\/+$/, '') };
  });
  const forwarded = targets.map(() => 0);
  const down = targets.map(() => false);
  const inFlight = new Set<ClientRequest>();
  let cursor = 0;
  let closing = false;

  /** The next target in turn that is up and not yet tried for this request; the turn moves past it. */
  const pick = (tried: Set<number>): number | undefined => {
    for (let step = 0; step < targets.length; step++) {
      const index = (cursor + step) % targets.length;
      if (down[index] || tried.has(index)) continue;
      cursor = (index + 1) % targets.length;
      return index;
    }
    return undefined;
  };

  const badGateway = (res: ServerResponse, why: string) => {
    if (res.headersSent || res.destroyed) {
      res.destroy();
      return;
    }
    res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' }).end(`bad gateway: ${why}`);
  };

  /** One incoming request: the targets tried for it, the attempt in flight, whether the client left. */
  interface Exchange {
    req: IncomingMessage;
    res: ServerResponse;
    tried: Set<number>;
    attempt: ClientRequest | undefined;
    clientGone: boolean;
  }

  const forward = (exchange: Exchange, lastError: string) => {
    const { req, res, tried } = exchange;
    const index = closing ? undefined : pick(tried);
    if (index === undefined) {
      badGateway(res, tried.size === 0 ? 'every target is down' : `no target took the request (${lastError})`);
      return;
    }
    tried.add(index);
    const target = targets[index]!;
    let connected = false;
    const upstream = request({
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: target.prefix + (req.url ?? '/'),
      headers: endToEnd(req.headers),
      agent: false,
    });
    exchange.attempt = upstream;
    inFlight.add(upstream);
    upstream.on('close', () => inFlight.delete(upstream));

    const onConnect = () => {
      connected = true;
      forwarded[index] = (forwarded[index] ?? 0) + 1;
      req.pipe(upstream);
    };
    upstream.on('socket', (socket: Socket) => {
      if (socket.connecting) socket.once('connect', onConnect);
      else onConnect();
    });

    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (exchange.clientGone || closing) return;
      const why = error.code ?? error.message;
      // Nothing was sent: this target never saw the request, so another one may take it.
      if (!connected) forward(exchange, why);
      // The target had (part of) the request and may have acted on it: never send it twice.
      else badGateway(res, `target ${index} failed before answering (${why})`);
    });

    upstream.on('response', (answer: IncomingMessage) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
      answer.pipe(res);
      // The target died in the middle of its answer: the client must not take a cut-off body for a whole one.
      answer.on('error', () => res.destroy());
      answer.on('close', () => {
        if (!answer.complete) res.destroy();
      });
    });
  };

  const server = createServer((req, res) => {
    const exchange: Exchange = { req, res, tried: new Set(), attempt: undefined, clientGone: false };
    // The client went away before its answer was sent: so does the request to the target.
    res.on('close', () => {
      if (res.writableFinished) return;
      exchange.clientGone = true;
      exchange.attempt?.destroy();
    });
    forward(exchange, '');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;

  return {
    url: `http://${address}:${port}`,
    counts: () => [...forwarded],
    setDown(index, isDown) {
      if (!Number.isInteger(index) || index < 0 || index >= targets.length) {
        throw new RangeError(`setDown: no target ${index} (there are ${targets.length})`);
      }
      down[index] = isDown;
    },
    close() {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const upstream of inFlight) upstream.destroy();
      server.closeAllConnections();
      return closed;
    },
  };
}
