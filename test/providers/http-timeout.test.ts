/**
 * The provider timeout counts the time this process ran, not the wall clock: a process paused
 * (SIGSTOP, a stalled VM, a blocked event loop) while the provider's answer reached its socket
 * reads that answer on waking, instead of taking it for silence (DESIGN invariant 9: slow is not
 * dead). A provider that truly says nothing still times out.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { send } from '../../src/providers/http.ts';

/** Blocks this thread for `ms` (the event loop stands still, as under SIGSTOP). */
function pauseProcess(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe('provider timeout', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  /** A provider that answers `{"ok":true}` after `delayMs` (never, with Infinity). */
  const provider = async (delayMs: number): Promise<string> => {
    server = createServer((_req, res) => {
      if (delayMs === Infinity) return;
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'), delayMs);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  const call = (baseURL: string, timeoutMs: number) =>
    send(
      { baseURL, timeoutMs },
      { method: 'POST', path: '/transaction', body: {}, retries: 0, fail: (init) => Object.assign(new Error(init.kind), init) },
    );

  it('reads an answer that arrived while the process was paused past the timeout', async () => {
    const baseURL = await provider(50);
    const answer = call(baseURL, 400);
    // Let the request go out, then stand still for three timeouts while the answer arrives.
    await new Promise((resolve) => setTimeout(resolve, 20));
    pauseProcess(1_200);
    await expect(answer).resolves.toMatchObject({ status: 200, json: { ok: true } });
  });

  it('still times out a provider that says nothing while the process runs', async () => {
    const baseURL = await provider(Infinity);
    const started = Date.now();
    await expect(call(baseURL, 300)).rejects.toMatchObject({ kind: 'unknown_outcome' });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(3_000);
  });
});
