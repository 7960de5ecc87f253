import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Api } from 'grammy';
import { installOutputGuard, logPollingErrors, outputSecrets, type WritableLike } from '../src/output-guard.ts';
import { createLogger, maskSecrets } from '../src/logger.ts';
import { inboxGetUpdatesTransformer } from '../src/server/update-inbox.ts';
import { openContractInbox } from './helpers/contract-inbox.ts';
import { createVault } from '../src/store/vault.ts';
import { startBotApi } from '../tools/playground/bot-api.ts';
import { mountTinyTmpfs } from './helpers/disk.ts';

const token = '123456789:AAEsecretpartofthetoken_x';
const key = Buffer.alloc(32, 42);

/** A stand-in for process.stderr that records what reaches it. */
function fakeStream(): WritableLike & { written: Array<{ chunk: unknown; rest: unknown[] }> } {
  const written: Array<{ chunk: unknown; rest: unknown[] }> = [];
  return {
    written,
    write: (chunk: unknown, ...rest: unknown[]) => {
      written.push({ chunk, rest });
      return true;
    },
  };
}

describe('output guard', () => {
  const secrets = outputSecrets({ BOT_TOKEN: ` ${token} `, ENCRYPTION_KEY: key.toString('base64') });

  it('lists the token, its secret part, its URL form and every form of the encryption key', () => {
    for (const form of [
      token,
      'AAEsecretpartofthetoken_x',
      encodeURIComponent(token),
      key.toString('base64'),
      key.toString('base64url'),
      key.toString('hex'),
    ]) {
      expect(secrets).toContain(form);
    }
    expect(outputSecrets({})).toEqual([]);
  });

  it("masks DATABASE_URL's password, as written and decoded", () => {
    const forms = outputSecrets({ DATABASE_URL: 'postgres://kiosbot:p%40ss-word-1@db:5432/kiosbot' });
    expect(maskSecrets('connect postgres://kiosbot:p%40ss-word-1@db failed; said p@ss-word-1', forms)).not.toMatch(/ss-word-1/);
    expect(outputSecrets({ DATABASE_URL: 'postgres://db/kiosbot' })).toEqual([]);
  });

  it('lists the old keys of a key rotation too', () => {
    const old = Buffer.alloc(32, 21);
    const forms = outputSecrets({
      ENCRYPTION_KEY: key.toString('base64'),
      ENCRYPTION_KEY_PREVIOUS: `junk-value-x, ${old.toString('base64')}`,
    });
    for (const form of [old.toString('base64'), old.toString('hex'), 'junk-value-x']) expect(forms).toContain(form);
  });

  it('masks every form, and any bot token in a Bot API URL', () => {
    const text = `request to http://127.0.0.1:1/bot${token}/getUpdates failed; part AAEsecretpartofthetoken_x; url ${encodeURIComponent(token)}; key ${key.toString('hex')} ${key.toString('base64url')}; other http://x/bot987:zzzzzzzzzz/getMe`;
    const masked = maskSecrets(text, secrets);
    for (const form of [...secrets, '987:zzzzzzzzzz']) expect(masked).not.toContain(form);
    expect(masked).toContain('request to http://127.0.0.1:1/bot[redacted]/getUpdates failed');
    expect(masked).toContain('[redacted]');
  });

  it('wraps write: strings and byte chunks are masked, callbacks pass through, and it can be removed', () => {
    const stream = fakeStream();
    const restore = installOutputGuard(secrets, [stream]);
    const callback = () => {};
    stream.write(`[grammY runner] FetchError: request to http://h/bot${token}/getUpdates failed\n` as never, callback as never);
    stream.write(Buffer.from(`key=${key.toString('base64')}\n`) as never, 'buffer' as never, callback as never);
    stream.write('harmless\n' as never);
    expect(stream.written.map((w) => w.chunk)).toEqual([
      '[grammY runner] FetchError: request to http://h/bot[redacted]/getUpdates failed\n',
      'key=[redacted]\n',
      'harmless\n',
    ]);
    expect(stream.written[0]!.rest).toEqual([callback]);
    expect(stream.written[1]!.rest).toEqual([callback]);
    restore();
    stream.write(`raw ${token}` as never);
    expect(stream.written.at(-1)!.chunk).toBe(`raw ${token}`);
  });

  it('a crash (uncaught exception, unhandled rejection) is printed masked, and the process still exits 1', () => {
    const guard = pathToFileURL(path.resolve(import.meta.dirname, '../src/output-guard.ts')).href;
    const loader = pathToFileURL(path.resolve(import.meta.dirname, '../node_modules/tsx/dist/loader.mjs')).href;
    for (const crash of [
      `throw new Error('request to /x/${token.slice(10)} failed')`,
      `void Promise.reject(new Error('token ${token} rejected'))`,
    ]) {
      const script = `import { installOutputGuard, outputSecrets, printCrashesMasked } from '${guard}';
        const secrets = outputSecrets({ BOT_TOKEN: '${token}' });
        installOutputGuard(secrets);
        printCrashesMasked(secrets);
        setTimeout(() => { ${crash}; }, 0);`;
      const child = spawnSync(process.execPath, ['--import', loader, '--input-type=module', '-e', script], {
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(child.status, child.stderr).toBe(1);
      expect(child.stderr).toContain('kiosbot crashed');
      expect(child.stderr).toContain('[redacted]');
      expect(child.stderr + child.stdout).not.toContain(token.slice(10));
    }
  }, 60_000);
});

describe('polling errors in the log', () => {
  it('a read-only data directory is named as such (path, errno, what to do), not blamed on the network', async (ctx) => {
    const disk = mountTinyTmpfs();
    if ('reason' in disk) {
      if (process.env.KIOSBOT_REQUIRE_TMPFS === '1') throw new Error(`KIOSBOT_REQUIRE_TMPFS=1 but ${disk.reason}`);
      ctx.skip(`no read-only file system here: ${disk.reason}`);
      return;
    }
    const telegram = await startBotApi();
    const opened = await openContractInbox(disk.dir, createVault({ key }));
    try {
      // The data directory turns read-only while the bot runs (a remount, or the kernel after disk errors).
      expect(spawnSync('mount', ['-o', 'remount,ro', disk.dir]).status).toBe(0);
      const logs: Array<Record<string, unknown>> = [];
      const logger = createLogger({ level: 'debug', write: (line) => logs.push(JSON.parse(line) as Record<string, unknown>) });
      const api = new Api(telegram.token, { apiRoot: telegram.apiRoot });
      api.config.use(inboxGetUpdatesTransformer(opened.inbox));
      logPollingErrors(api, logger);
      const sari = telegram.createUser({ firstName: 'Sari' });
      sari.send('TSEL10.081234567890');

      await expect(api.getUpdates({ offset: 0, timeout: 0 })).rejects.toMatchObject({ code: 'EROFS' });
      const [line, ...more] = logs;
      expect(more).toEqual([]);
      expect(line).toMatchObject({
        level: 'error',
        msg: expect.stringContaining('data directory') as string,
        dataDirProblem: 'the data directory is on a read-only file system',
        errno: 'EROFS',
        path: expect.stringContaining(disk.dir) as string,
        whatToDo: expect.stringContaining('remount') as string,
      });
      expect(JSON.stringify(line)).not.toMatch(/network|TELEGRAM_API_ROOT/);
    } finally {
      spawnSync('mount', ['-o', 'remount,rw', disk.dir]);
      await opened.close();
      await telegram.close();
      disk.unmount();
    }
  });
});
