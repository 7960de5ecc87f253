/**
 * The deployment files (README "Deployment"). This machine cannot build the image (no registry
 * access), so the Dockerfile is linted with dockerfile-utils and its essentials are checked as text, and the systemd unit with
 * `systemd-analyze verify` when it is installed, else structurally.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validate } from 'dockerfile-utils';

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** Dockerfile instructions (continuation lines joined, comments dropped), split into stages. */
function dockerStages(text: string): Array<Array<{ op: string; args: string }>> {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const stages: Array<Array<{ op: string; args: string }>> = [];
  for (const line of lines) {
    const [op = '', ...rest] = line.split(/\s+/);
    const instruction = { op: op.toUpperCase(), args: rest.join(' ') };
    if (instruction.op === 'FROM') stages.push([]);
    stages.at(-1)?.push(instruction);
  }
  return stages;
}

/** `["a", "b"]` or `a b` → the words. */
const words = (args: string): string[] => (args.startsWith('[') ? (JSON.parse(args) as string[]) : args.split(/\s+/));

describe('Dockerfile', () => {
  it('passes dockerfile-utils (the linter of the Docker language server), which does flag a broken one', () => {
    expect(validate(read('Dockerfile')).map((problem) => problem.message)).toEqual([]);
    expect(validate('FROM node:20-slim\nEXPOSE port\nUSER\n').length).toBeGreaterThan(0);
  });

  const stages = dockerStages(read('Dockerfile'));
  const final = stages.at(-1) ?? [];
  const all = (op: string, stage = final) => stage.filter((i) => i.op === op);
  const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };

  it('is multi-stage on a Node 20 image; the final stage installs production dependencies only', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage[0]?.args).toMatch(/^node:20/);
    expect(all('RUN').some((i) => /npm ci\b.*--omit=dev/.test(i.args))).toBe(true);
    expect(all('COPY').some((i) => i.args.includes('--from='))).toBe(true);
    expect(all('RUN', stages[0]).some((i) => i.args.includes('npm run build'))).toBe(true);
    expect(pkg.scripts.build).toBeDefined();
  });

  it('runs as a non-root user, keeps its data in a volume and checks GET /health on 0.0.0.0', () => {
    const user = all('USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    const volume = all('VOLUME').flatMap((i) => words(i.args));
    const env = all('ENV')
      .map((i) => i.args)
      .join(' ');
    const dataDir = /DATA_DIR=(\S+)/.exec(env)?.[1];
    expect(dataDir).toBeDefined();
    expect(volume).toContain(dataDir);
    expect(env).toMatch(/HEALTH_HOST=0\.0\.0\.0/);
    const healthcheck = all('HEALTHCHECK').at(-1)?.args ?? '';
    expect(healthcheck).toContain('/health');
    expect(healthcheck).toMatch(/CMD/);
  });

  it('bakes in no secret: no secret variable set, no .env copied, and .dockerignore keeps them out', () => {
    const text = read('Dockerfile');
    for (const name of ['BOT_TOKEN', 'ENCRYPTION_KEY', 'WEBHOOK_SECRET', 'HEALTH_TOKEN', 'API_KEY']) {
      expect(stages.flat().filter((i) => (i.op === 'ENV' || i.op === 'ARG') && i.args.includes(name))).toEqual([]);
    }
    expect(text).not.toMatch(/COPY[^\n]*\.env\b/);
    expect(text).not.toMatch(/COPY\s+\.\s/);
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['.env', 'data/', 'backups/', 'node_modules/', '.git/']) expect(ignored).toContain(entry);
  });

  it('starts the command package.json names (start:prod), whose bundle the build writes', () => {
    const command = words(all('CMD').at(-1)?.args ?? '').join(' ');
    expect(Object.values(pkg.scripts)).toContain(command);
    expect(pkg.scripts['start:prod']).toBe(command);
    const entry = command.split(' ').at(-1) ?? '';
    expect(pkg.scripts.build).toContain(`--outdir=${path.dirname(entry)}`);
    // src/bot/i18n.ts finds the locales two directories above the bundle, as above src/bot/.
    expect(pkg.scripts.build).toContain(`cp -r locales ${path.normalize(path.join(path.dirname(entry), '../../locales'))}`);
  });
});

describe('deploy/kiosbot.service', () => {
  const unit = read('deploy/kiosbot.service');
  const sections = new Map<string, Array<[string, string]>>();
  let current = '';
  for (const line of unit.split('\n').map((l) => l.trim())) {
    if (line === '' || line.startsWith('#')) continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header?.[1]) {
      current = header[1];
      sections.set(current, []);
      continue;
    }
    const eq = line.indexOf('=');
    expect(eq, `not key=value: ${line}`).toBeGreaterThan(0);
    sections.get(current)?.push([line.slice(0, eq), line.slice(eq + 1)]);
  }
  const value = (section: string, key: string) => sections.get(section)?.find(([k]) => k === key)?.[1];

  it('is a well-formed unit: a non-root user, restart policy, EnvironmentFile, WorkingDirectory, hardening', () => {
    expect([...sections.keys()]).toEqual(['Unit', 'Service', 'Install']);
    expect(value('Service', 'User')).toMatch(/^(?!root$)\w+/);
    expect(value('Service', 'Restart')).toMatch(/^(on-failure|always)$/);
    expect(value('Service', 'EnvironmentFile')).toMatch(/^-?\//);
    expect(value('Service', 'WorkingDirectory')).toMatch(/^\//);
    expect(value('Service', 'ExecStart')).toMatch(/^\/\S+ /);
    for (const key of ['NoNewPrivileges', 'ProtectSystem', 'ProtectHome', 'PrivateTmp']) expect(value('Service', key)).toBeDefined();
    // Node's JIT needs writable executable memory.
    expect(value('Service', 'MemoryDenyWriteExecute')).toBeUndefined();
    expect(value('Install', 'WantedBy')).toBe('multi-user.target');
  });

  it.skipIf(!existsSync('/usr/bin/systemd-analyze') && !existsSync('/bin/systemd-analyze'))('passes systemd-analyze verify', () => {
    // Throws (with systemd's complaints) on a non-zero exit.
    const out = execFileSync('systemd-analyze', ['verify', path.join(root, 'deploy/kiosbot.service')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(out).toBe('');
  });
});
