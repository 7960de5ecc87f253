/**
 * A backup taken while purchases are under way, restored after the bot went on: the restored bot
 * knows nothing of what happened after the backup's instant, so it buys nothing again. A tap the
 * backup held unhandled is not replayed, and a purchase confirmed but not yet sent at that instant
 * is never sent (a status check of a ref id the provider does not know creates it).
 */
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, testEncryptionKey, type TestWorld } from '../helpers/app.ts';
import { buyer, eventually, sandboxTransactions, waitForSummary } from '../helpers/buy.ts';
import { restoreBackup, writeBackup } from '../../src/store/backup.ts';
import { writeFileAtomic, type AtomicWriter } from '../../src/store/durable-file.ts';
import { createVault } from '../../src/store/vault.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';

const vault = () => createVault({ key: Buffer.from(testEncryptionKey, 'base64') });

/**
 * A store writer that, once armed, makes a backup of the data directory just before the first
 * hot-file write whose text `when` accepts: the state on disk at that instant.
 */
function backupBeforeHotWrite() {
  const state: { dataDir?: string; file?: string; when?: (text: string) => boolean; taken: boolean } = { taken: false };
  const writeFile: AtomicWriter = async (file, content, options) => {
    const when = state.when;
    if (when && state.dataDir && state.file && path.basename(file) === 'kiosbot.json' && when(String(content))) {
      state.when = undefined;
      await writeBackup(state.dataDir, state.file);
      state.taken = true;
    }
    await writeFileAtomic(file, content, options);
  };
  return { state, writeFile };
}

describe('restoring a backup taken while users buy', () => {
  let world: TestWorld;
  let backupDir: string;
  afterEach(async () => {
    await world.stop();
    await rm(backupDir, { recursive: true, force: true });
  });

  async function start(hook: ReturnType<typeof backupBeforeHotWrite>) {
    world = await startWorld({ app: { storeWriteFile: hook.writeFile } });
    backupDir = await mkdtemp(path.join(tmpdir(), 'kiosbot-backups-'));
    hook.state.dataDir = world.dataDir;
    hook.state.file = path.join(backupDir, 'during.json.gz');
  }

  /** Stops the bot, restores the backup into its data directory, starts it and lets its watcher run. */
  async function restoreAndStart(file: string) {
    await world.restart(async () => {
      await restoreBackup(file, world.dataDir, vault());
    });
    await world.idle();
    await world.app.watcher.runOnce();
    world.app.outbox.start();
    await world.app.outbox.drain({ timeoutMs: 5000 });
  }

  it('a Confirm tap stored before the backup whose purchase was recorded after it is not carried out again', async () => {
    const hook = backupBeforeHotWrite();
    await start(hook);
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('TSEL10.081234567890'));
    // The tap is in the inbox on disk; its confirmation is about to be written: the backup's instant.
    hook.state.when = (text) => text.includes('"status":"Created"');
    budi.tap(summary, '✅ Konfirmasi');
    await eventually(() => sandboxTransactions(world).length === 1);
    await world.idle();
    expect(hook.state.taken).toBe(true);
    const bought = sandboxTransactions(world).map((tx) => tx.refId);

    await restoreAndStart(hook.state.file ?? '');

    // The live bot bought it once; the restored bot bought nothing, under no ref id.
    expect(sandboxTransactions(world).map((tx) => tx.refId)).toEqual(bought);
    expect(world.logs.some((line) => line.includes('replaying updates a crash interrupted'))).toBe(false);
  });

  it('a purchase confirmed before the backup and refused after it is never sent by the restored bot', async () => {
    const hook = backupBeforeHotWrite();
    await start(hook);
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('TSEL10.081234567890'));
    const { apiId } = resellerDemoAccounts.main;
    const balance = world.sandbox.reseller.balanceOf(apiId);
    // The live bot's first send is refused (402): the user is told nothing was bought.
    world.sandbox.reseller.setBalance(apiId, 0);
    // The confirmation is on disk, its first send about to be recorded: the backup's instant.
    hook.state.when = (text) => text.includes('"sentAt"');
    budi.tap(summary, '✅ Konfirmasi');
    await eventually(() => world.sandbox.received.some((request) => request.path === '/transaction'));
    await world.idle();
    expect(hook.state.taken).toBe(true);
    const [refused] = await world.app.db.transactions.listByUser(budi.id, { limit: 5 });
    expect(refused?.status).toBe('Rejected');
    world.sandbox.reseller.setBalance(apiId, balance);
    const sentBefore = world.sandbox.received.filter((request) => request.path === '/transaction').length;

    await restoreAndStart(hook.state.file ?? '');

    // Nothing reached the provider under that ref id (a status check of it would have bought it now).
    expect(world.sandbox.received.filter((request) => request.path === '/transaction')).toHaveLength(sentBefore);
    expect(sandboxTransactions(world)).toHaveLength(0);
    expect(world.sandbox.reseller.balanceOf(apiId)).toBe(balance);
    // The restored bot settles it as unknown to it, and tells the owner to check with the provider.
    const restored = await world.app.db.transactions.find(refused?.refId ?? '');
    expect(restored?.status).toBe('Unresolved');
    await eventually(() => world.telegram.botMessages(budi).some((message) => (message.text ?? '').includes('cadangan')));
  });
});
