/**
 * The fleet tests' load balancer (round-robin-proxy.ts) against three tiny echo servers on
 * loopback: turns, what arrives, refused and dropped connections, targets marked down, close().
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy.ts';

interface Echo {
  server: string;
  method: string;
  url: string;
  secret: string | null;
  contentType: string | null;
  body: string;
}

interface Target {
  name: string;
  url: string;
  server: Server;
  /** Requests this server received (drops and hangs included). */
  received: Echo[];
  /** Resolves when a /hang request to this server has arrived, then when its connection closed. */
  hung: { arrived: Promise<void>; closed: Promise<void> };
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

/**
 * A server that answers every request with JSON saying which server it is and what it got.
 * `/drop` reads the request, then resets the connection without answering (a kill -9 mid-request);
 * `/hang` never answers.
 */
async function startTarget(name: string): Promise<Target> {
  const received: Echo[] = [];
  let arrived!: () => void;
  let closed!: () => void;
  const hung = { arrived: new Promise<void>((r) => (arrived = r)), closed: new Promise<void>((r) => (closed = r)) };
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const echo: Echo = {
        server: name,
        method: req.method ?? '',
        url: req.url ?? '',
        secret: (req.headers['x-telegram-bot-api-secret-token'] as string | undefined) ?? null,
        contentType: req.headers['content-type'] ?? null,
        body,
      };
      received.push(echo);
      if (req.url === '/drop') {
        req.socket.resetAndDestroy();
        return;
      }
      if (req.url === '/hang') {
        res.on('close', () => closed());
        arrived();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-served-by': name }).end(JSON.stringify(echo));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { name, url: `http://127.0.0.1:${port}`, server, received, hung };
}

/** Stops listening (a connection to its port is then refused) and ends what is still open. */
const stop = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

describe('round-robin proxy', () => {
  let targets: Target[] = [];
  let proxy: RoundRobinProxy | undefined;

  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
    await Promise.all(targets.filter((t) => t.server.listening).map((t) => stop(t.server)));
    targets = [];
  });

  const start = async () => {
    targets = await Promise.all(['a', 'b', 'c'].map(startTarget));
    proxy = await startRoundRobinProxy({ targets: targets.map((t) => t.url) });
    return proxy;
  };

  /** GET `path` through the proxy: the status and which server answered. */
  const get = async (path = '/') => {
    const answer = await fetch(`${proxy!.url}${path}`);
    const text = await answer.text();
    return { status: answer.status, server: answer.status === 200 ? (JSON.parse(text) as Echo).server : text };
  };
  const getInTurn = async (n: number) => {
    const servers: string[] = [];
    for (let i = 0; i < n; i++) servers.push((await get()).server);
    return servers;
  };

  it('listens on a free loopback port and sends the requests to the targets in turn', async () => {
    await start();
    expect(proxy!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(proxy!.url).not.toMatch(/:0$/);
    expect(await getInTurn(7)).toEqual(['a', 'b', 'c', 'a', 'b', 'c', 'a']);
    expect(proxy!.counts()).toEqual([3, 2, 2]);
  });

  it('spreads concurrent requests evenly', async () => {
    await start();
    const answers = await Promise.all(Array.from({ length: 30 }, () => get()));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(proxy!.counts()).toEqual([10, 10, 10]);
    expect(targets.map((t) => t.received.length)).toEqual([10, 10, 10]);
  });

  it('passes the method, path, query, the secret-token header and the body through intact, and the answer back', async () => {
    await start();
    // Large enough to arrive in many chunks on both legs.
    const update = JSON.stringify({ update_id: 1, message: { text: 'é✓'.repeat(150_000) } });
    const answer = await fetch(`${proxy!.url}/telegram/webhook?x=1&y=%20`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'secret_token-0123456789' },
      body: update,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-served-by')).toBe('a');
    const echo = (await answer.json()) as Echo;
    expect(echo).toEqual({
      server: 'a',
      method: 'POST',
      url: '/telegram/webhook?x=1&y=%20',
      secret: 'secret_token-0123456789',
      contentType: 'application/json',
      body: update,
    });
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const other = (await (await fetch(`${proxy!.url}/m`, { method, body: method })).json()) as Echo;
      expect([other.method, other.body]).toEqual([method, method]);
    }
  });

  it('skips a target that refuses connections (stopped, like a killed instance): its share goes to the others', async () => {
    await start();
    expect(await getInTurn(3)).toEqual(['a', 'b', 'c']);
    await stop(targets[1]!.server);
    expect(await getInTurn(6)).toEqual(['a', 'c', 'a', 'c', 'a', 'c']);
    expect(proxy!.counts()).toEqual([4, 1, 4]);

    // A POST whose turn falls on the stopped target is not lost: its body goes whole to the next one.
    expect(await getInTurn(1)).toEqual(['a']);
    const echo = (await (await fetch(`${proxy!.url}/w`, { method: 'POST', body: 'the update' })).json()) as Echo;
    expect([echo.server, echo.body]).toEqual(['c', 'the update']);
  });

  it('does not resend a request whose target dropped the connection after getting it: 502, so Telegram re-delivers', async () => {
    await start();
    const answer = await fetch(`${proxy!.url}/drop`, {
      method: 'POST',
      headers: { 'x-telegram-bot-api-secret-token': 'secret_token-0123456789' },
      body: '{"update_id":7}',
    });
    expect(answer.status).toBe(502);
    expect(await answer.text()).toMatch(/bad gateway: target 0 failed before answering/);
    // Only the first target got it, whole; no other target saw it.
    expect(targets.map((t) => t.received.map((r) => r.body))).toEqual([['{"update_id":7}'], [], []]);
    expect(proxy!.counts()).toEqual([1, 0, 0]);
    // The turn moved on.
    expect(await getInTurn(3)).toEqual(['b', 'c', 'a']);
  });

  it('skips targets marked down without trying them, and takes them back when they are up', async () => {
    await start();
    proxy!.setDown(0, true);
    expect(await getInTurn(4)).toEqual(['b', 'c', 'b', 'c']);
    expect(targets[0]!.received).toEqual([]);
    proxy!.setDown(0, false);
    proxy!.setDown(2, true);
    expect(await getInTurn(3)).toEqual(['a', 'b', 'a']);
    expect(proxy!.counts()).toEqual([2, 3, 2]);
    expect(() => proxy!.setDown(3, true)).toThrow(RangeError);
  });

  it('answers 502 when every target is down, or every target refuses', async () => {
    await start();
    for (const index of [0, 1, 2]) proxy!.setDown(index, true);
    expect(await get()).toEqual({ status: 502, server: 'bad gateway: every target is down' });
    const post = await fetch(`${proxy!.url}/w`, { method: 'POST', body: 'x'.repeat(100_000) });
    expect(post.status).toBe(502);
    await post.text();

    for (const index of [0, 1, 2]) proxy!.setDown(index, false);
    await Promise.all(targets.map((t) => stop(t.server)));
    const refused = await get();
    expect(refused.status).toBe(502);
    expect(refused.server).toMatch(/no target took the request \(ECONNREFUSED\)/);
    expect(proxy!.counts()).toEqual([0, 0, 0]);
  });

  it('close() ends the requests in flight, stops listening and frees its port', async () => {
    await start();
    const hanging = fetch(`${proxy!.url}/hang`).then(
      (answer) => answer.status,
      () => 'failed',
    );
    await targets[0]!.hung.arrived;
    const { url } = proxy!;
    await proxy!.close();
    proxy = undefined;
    // The client's request failed and the target's connection was closed: nothing is left open.
    expect(await hanging).toBe('failed');
    await targets[0]!.hung.closed;
    await expect(fetch(`${url}/`)).rejects.toThrow();
    // The port is free again.
    const again = createServer();
    await new Promise<void>((resolve, reject) => {
      again.once('error', reject);
      again.listen(Number(new URL(url).port), '127.0.0.1', resolve);
    });
    await stop(again);
  });
});
