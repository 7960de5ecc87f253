/**
 * A provider request's timeout counts the time this process ran, not time it was stopped: an
 * instance paused (SIGSTOP) or starved while its request is at the provider must not take the
 * pause for the provider's silence. If it did, it would give up a request the provider is still
 * handling (or has answered), and the ref's next sender would ask about it while it is in flight.
 */
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../../src/providers/http.ts';

/**
 * The provider runs on a thread of its own, so it answers while this thread is blocked (as a
 * stopped process's kernel takes the answer in). It says when a request arrived, and answers
 * `{"ok":true}` after `answerMs`, or never for a path ending in /silent.
 */
const providerCode = `
const http = require('node:http');
const { parentPort } = require('node:worker_threads');
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    parentPort.postMessage({ arrived: req.url });
    if (req.url.endsWith('/silent')) return;
    setTimeout(() => res.end('{"ok":true}'), 50);
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', () => server.close(() => parentPort.close()));
`;

let provider: Worker;
let baseURL: string;

beforeAll(async () => {
  provider = new Worker(providerCode, { eval: true });
  const [ready] = (await once(provider, 'message')) as [{ port: number }];
  baseURL = `http://127.0.0.1:${ready.port}`;
});
afterAll(async () => {
  provider.postMessage('close');
  await once(provider, 'exit');
});

/** Blocks this thread for `ms`, as SIGSTOP would: no timer, no socket read, while the kernel keeps receiving. */
const stopFor = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

const fail = (init: { kind: string }) => Object.assign(new Error(init.kind), init);
const request = (path: string) => send({ baseURL, timeoutMs: 300 }, { method: 'POST', path, body: { ref_id: 'R1' }, retries: 0, fail });

describe('provider requests', () => {
  it('a process stopped past its timeout while the provider answered takes the answer, not a timeout', async () => {
    const arrived = once(provider, 'message');
    const answer = request('/transaction');
    await arrived;
    // Stopped past the timeout; the provider answers 50 ms into it.
    stopFor(900);
    await expect(answer).resolves.toEqual({ status: 200, json: { ok: true }, notJson: false });
  });

  it('a provider that stays silent while the process runs still times out', async () => {
    const started = performance.now();
    await expect(request('/silent')).rejects.toMatchObject({ kind: 'unknown_outcome' });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('stopped, then silent for the timeout while running again: times out', async () => {
    const arrived = once(provider, 'message');
    const started = performance.now();
    const answer = request('/silent');
    await arrived;
    stopFor(900);
    await expect(answer).rejects.toMatchObject({ kind: 'unknown_outcome' });
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
