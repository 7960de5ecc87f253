/**
 * `npm run sandbox`, `npm run playground` and `npm run demo` on a port that is already taken:
 * each says which variable chooses another port and exits non-zero (no stack trace, no hang).
 */
import { createServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serveOnLoopback } from './fixture.ts';
import { spawnBot, tsxLoader } from '../helpers/bot-process.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

/** Runs a tool entry in an empty directory (no .env) and resolves with its exit code and output. */
async function runTool(entry: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const cwd = await mkdtemp(path.join(tmpdir(), 'kiosbot-ports-'));
  cleanup.push(() => rm(cwd, { recursive: true, force: true }));
  const tool = spawnBot(env, cwd, ['--import', tsxLoader, path.join(repoRoot, entry)]);
  cleanup.push(() => tool.stop('SIGKILL'));
  const code = await tool.exited;
  return { code, output: tool.output };
}

async function takenPort(): Promise<string> {
  const taken = await serveOnLoopback(createServer(() => {}));
  cleanup.push(() => taken.close());
  return new URL(taken.url).port;
}

describe('a tool on a busy port', () => {
  it('the sandbox names SANDBOX_PORT and exits non-zero', async () => {
    const port = await takenPort();
    const { code, output } = await runTool('tools/sandbox/main.ts', { SANDBOX_PORT: port });
    expect(code).not.toBe(0);
    expect(output).toContain(`127.0.0.1:${port}`);
    expect(output).toMatch(/already in use/);
    expect(output).toMatch(/SANDBOX_PORT/);
    expect(output).not.toMatch(/\n\s+at /); // no stack trace
  }, 30_000);

  it('the playground names PLAYGROUND_PORT and exits non-zero', async () => {
    const port = await takenPort();
    const { code, output } = await runTool('tools/playground/main.ts', { PLAYGROUND_PORT: port });
    expect(code).not.toBe(0);
    expect(output).toContain(`127.0.0.1:${port}`);
    expect(output).toMatch(/already in use/);
    expect(output).toMatch(/PLAYGROUND_PORT/);
    expect(output).not.toMatch(/\n\s+at /);
  }, 30_000);

  it('the demo names the variable of the busy port and exits non-zero', async () => {
    const port = await takenPort();
    const { code, output } = await runTool('tools/demo/main.ts', { SANDBOX_PORT: '0', PLAYGROUND_PORT: port });
    expect(code).not.toBe(0);
    expect(output).toMatch(/PLAYGROUND_PORT/);
    expect(output).toMatch(/already in use/);
    expect(output).not.toMatch(/\n\s+at /);
  }, 30_000);
});
