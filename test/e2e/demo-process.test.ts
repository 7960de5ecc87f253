/**
 * `npm run demo`: one command starts the sandbox, the playground and the bot; Ctrl+C (SIGINT to
 * the whole process group, as a terminal sends it), a SIGTERM or SIGHUP to npm alone (what a CI
 * runner, `timeout` or systemd sends), npm killed outright, or a SIGTERM to the demo alone stops
 * every process it started, frees its ports and removes the temporary data directory; the bot
 * stops by itself, and removes that directory, if the demo is killed outright.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { alive, descendants } from '../helpers/process-tree.ts';
import { tsxLoader } from '../helpers/bot-process.ts';
import { until } from './fixture.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.pid && child.exitCode === null) {
      for (const p of descendants(child.pid)) {
        try {
          process.kill(p.pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
      child.kill('SIGKILL');
    }
  }
});

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function launch(command: string, args: string[]): Running {
  const child = spawn(command, args, {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SANDBOX_PORT: '0', PLAYGROUND_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, like a terminal's foreground job
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function ready(demo: Running) {
  await until(
    () => demo.output().includes('Ctrl+C stops everything'),
    90_000,
    () => `the demo did not get ready:\n${demo.output()}`,
  );
  const output = demo.output();
  const pageUrl = /Open the chat page:\s+(\S+)/.exec(output)?.[1] ?? '';
  const dataDir = /Data: (\S+)/.exec(output)?.[1] ?? '';
  const sandboxUrl = /curl -X PATCH (http:\/\/[\d.]+:\d+)\//.exec(output)?.[1] ?? '';
  const tree = descendants(demo.child.pid!);
  return { output, pageUrl, sandboxUrl, dataDir, tree };
}

async function expectAllStopped(demo: Running, tree: ReturnType<typeof descendants>, pageUrl: string, dataDir: string) {
  await demo.exited; // npm itself ends by the signal; the demo under it exits 0 once all is stopped
  // The demo may print its last line after npm has gone (npm killed outright).
  await until(
    () => demo.output().includes('Demo stopped.'),
    30_000,
    () => `the demo did not say it stopped:\n${demo.output()}`,
  );
  await until(
    () => tree.every((p) => !alive(p.pid)),
    15_000,
    () =>
      `still running after the demo exited:\n${tree
        .filter((p) => alive(p.pid))
        .map((p) => `${p.pid} ${p.command}`)
        .join('\n')}`,
  );
  await expect(fetch(pageUrl)).rejects.toThrow();
  expect(existsSync(dataDir)).toBe(false);
}

describe('npm run demo', () => {
  it('prints the page and the demo credentials; Ctrl+C stops every process it started', async () => {
    const demo = launch('npm', ['run', 'demo']);
    const { output, pageUrl, dataDir, tree } = await ready(demo);
    expect(pageUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(output).toContain('DEMO-RESELLER');
    expect(output).toContain('demo-key-7f3a91c2e8b54d06');
    expect(output).toContain('mk_demo_5c8e2f1a9b7d4036');
    expect(output).toContain('gs-demo-3f9c1a7b52e84d06');
    expect(output).toContain('TSEL10.081234567890');
    expect(existsSync(dataDir)).toBe(true);
    expect(tree.some((p) => p.command.includes('src/main.ts'))).toBe(true);
    const page = await fetch(pageUrl);
    expect(page.status).toBe(200);

    process.kill(-demo.child.pid!, 'SIGINT'); // Ctrl+C: the whole foreground process group
    await expectAllStopped(demo, tree, pageUrl, dataDir);
  }, 150_000);

  it('SIGTERM to the demo process alone stops the bot it started too', async () => {
    const demo = launch(process.execPath, ['--import', tsxLoader, 'tools/demo/main.ts']);
    const { pageUrl, dataDir, tree } = await ready(demo);
    expect(tree.some((p) => p.command.includes('src/main.ts'))).toBe(true);

    demo.child.kill('SIGTERM');
    expect(await demo.exited).toBe(0);
    await expectAllStopped(demo, tree, pageUrl, dataDir);
  }, 150_000);

  // A CI runner, `timeout` or systemd signals the process it started (npm) and nobody else;
  // npm 11 passes SIGTERM to the shell running the script, which ends without passing it on.
  for (const [how, signal] of [
    ['SIGTERM to npm alone', 'SIGTERM'],
    ['SIGHUP to npm alone', 'SIGHUP'],
    ['npm killed outright (SIGKILL)', 'SIGKILL'],
  ] as const) {
    it(`${how} stops every process of the demo, frees its ports and removes its data directory`, async () => {
      const demo = launch('npm', ['run', 'demo']);
      const { pageUrl, sandboxUrl, dataDir, tree } = await ready(demo);
      expect(sandboxUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(tree.map((p) => p.command).join('\n')).toMatch(/tools\/demo\/main\.ts[\s\S]*src\/main\.ts/);

      process.kill(demo.child.pid!, signal); // the npm process only, not its group
      await expectAllStopped(demo, tree, pageUrl, dataDir);
      await expect(fetch(sandboxUrl)).rejects.toThrow();
    }, 150_000);
  }

  it('the demo killed outright: the bot it started stops by itself and its data directory is removed', async () => {
    const demo = launch('npm', ['run', 'demo']);
    const { dataDir, tree } = await ready(demo);
    const demoNode = tree.find((p) => /--import \S+ tools\/demo\/main\.ts/.test(p.command));
    expect(demoNode).toBeDefined();

    process.kill(demoNode!.pid, 'SIGKILL'); // nothing left to run its stop()
    await until(
      () => tree.every((p) => !alive(p.pid)),
      20_000,
      () =>
        `still running:\n${tree
          .filter((p) => alive(p.pid))
          .map((p) => `${p.pid} ${p.command}`)
          .join('\n')}`,
    );
    await until(
      () => !existsSync(dataDir),
      10_000,
      () => `${dataDir} is still there`,
    );
  }, 150_000);
});
