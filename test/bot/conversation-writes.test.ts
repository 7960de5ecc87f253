/**
 * Conversation state is written only while a conversation is active: an update outside any
 * conversation writes no data file for it, and one inside writes only its user's shard file.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/store/durable-file.ts';
import { inboxFileName } from '../../src/store/inbox.ts';
import { shardOfUser, userShardFileName } from '../../src/store/user-shards.ts';
import { dataDirectoryOf, startWorld, type TestWorld } from '../helpers/app.ts';
import { eventually } from '../helpers/buy.ts';

describe('conversation state on disk', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  it('an update outside a conversation writes nothing; a conversation step writes its user’s shard only', async () => {
    const written: string[] = [];
    world = await startWorld({
      app: {
        storeWriteFile: async (file, content, options) => {
          await writeFileAtomic(file, content, options);
          written.push(file);
        },
      },
    });
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/start') });
    await dataDirectoryOf(world.app).flush();
    // The update inbox stores every private message, in or out of a conversation: not counted here.
    const relative = () =>
      written.map((file) => path.relative(dataDirectoryOf(world.app).dataDir, file)).filter((name) => name !== inboxFileName);

    // Known user, no conversation: no file is written (no state to store, none to delete).
    written.length = 0;
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/start') });
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/help') });
    await dataDirectoryOf(world.app).flush();
    expect(relative()).toEqual([]);

    // Inside /connect: the state goes to Budi's shard, and nowhere else.
    const picker = await world.telegram.waitForBotMessage(budi, { after: budi.send('/connect') });
    budi.tap(picker, 'Top-up reseller');
    await world.telegram.waitForBotMessage(budi, { after: picker, textIncludes: 'API ID' });
    // Stored when the update's handling ends, just after the prompt went out.
    await eventually(async () => (await world.app.db.conversations.read(`${budi.id}:${budi.id}`)) !== undefined);
    await dataDirectoryOf(world.app).flush();
    expect(relative().length).toBeGreaterThan(0);
    expect(new Set(relative())).toEqual(new Set([userShardFileName(shardOfUser(budi.id))]));
  });
});
