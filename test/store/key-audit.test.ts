import { describe, expect, it } from 'vitest';
import { allSealedWithCurrentKey, findUnreadable, type ShardSecrets, type StoredSecret } from '../../src/store/key-audit.ts';
import { conversationAad } from '../../src/store/records/conversations.ts';
import { credentialsAad } from '../../src/store/records/credentials.ts';
import { createVault, keyIdOf, legacyKeyId } from '../../src/store/vault.ts';

const currentKey = Buffer.alloc(32, 1);
const previousKey = Buffer.alloc(32, 2);
const strangerKey = Buffer.alloc(32, 3);
const vault = createVault({ key: currentKey, previousKeys: [previousKey] });
const previous = createVault({ key: previousKey });
const stranger = createVault({ key: strangerKey });
const legacyOfCurrent = createVault({ key: currentKey, keyId: legacyKeyId });
const legacyOfStranger = createVault({ key: strangerKey, keyId: legacyKeyId });

const credentials = (userId: number, sealedWith: typeof vault) => ({
  [`${userId}:reseller`]: {
    service: 'reseller' as const,
    sealed: sealedWith.encrypt('{"apiKey":"k"}', credentialsAad(userId, 'reseller')),
    connectedAt: '2026-11-01T00:00:00.000Z',
  },
});
const conversation = (key: string, sealedWith: typeof vault) => ({ [key]: sealedWith.encrypt('{}', conversationAad(key)) });

/** Two shards of many readable secrets, with the few the audit must find among them. */
function shards(): ShardSecrets[] {
  const first: ShardSecrets = { credentials: {}, conversations: {} };
  const second: ShardSecrets = { credentials: {}, conversations: {} };
  for (let id = 1; id <= 40; id++)
    Object.assign(id % 2 ? first.credentials : second.credentials, credentials(id, id % 3 ? vault : previous));
  Object.assign(first.credentials, credentials(101, stranger), credentials(102, legacyOfCurrent), credentials(103, legacyOfStranger));
  Object.assign(second.conversations, conversation('7:7', vault), conversation('8:8', stranger));
  return [first, second];
}

describe('key audit', () => {
  it('names every shard secret and stored update no configured key opens, by owner, with the key ids they need', () => {
    const update: StoredSecret = { token: stranger.encrypt('{}', 'inbox:5'), aad: 'inbox:5', name: 'the stored update 5' };
    const found = findUnreadable(vault, [update], shards());
    expect(found.names).toEqual([
      'the reseller credentials of user 101',
      'the reseller credentials of user 103',
      'the conversation state 8:8',
      'the stored update 5',
    ]);
    expect(found.keyIds).toEqual([keyIdOf(strangerKey), legacyKeyId].sort());
  });

  it('finds nothing when every secret opens: current, previous, and legacy tokens of a configured key', () => {
    const readable = shards().map((shard) => ({
      credentials: Object.fromEntries(Object.entries(shard.credentials).filter(([key]) => !['101:reseller', '103:reseller'].includes(key))),
      conversations: Object.fromEntries(Object.entries(shard.conversations).filter(([key]) => key !== '8:8')),
    }));
    expect(findUnreadable(vault, [], readable)).toEqual({ names: [], keyIds: [] });
  });

  it('a legacy token is opened, not trusted by its id: one sealed for another owner is unreadable', () => {
    const moved: ShardSecrets = {
      credentials: { '9:reseller': { ...credentials(10, legacyOfCurrent)['10:reseller']! } },
      conversations: {},
    };
    expect(findUnreadable(vault, [], [moved]).names).toEqual(['the reseller credentials of user 9']);
  });

  it('tells whether every secret is sealed with the current key', () => {
    const current = createVault({ key: currentKey });
    const onlyCurrent: ShardSecrets = { credentials: credentials(1, current), conversations: conversation('1:1', current) };
    expect(allSealedWithCurrentKey(current, [], [onlyCurrent])).toBe(true);
    expect(allSealedWithCurrentKey(current, [], [onlyCurrent, { credentials: credentials(2, previous), conversations: {} }])).toBe(false);
    expect(allSealedWithCurrentKey(current, [], [onlyCurrent, { credentials: {}, conversations: conversation('2:2', previous) }])).toBe(
      false,
    );
    const update: StoredSecret = { token: previous.encrypt('{}', 'inbox:1'), aad: 'inbox:1', name: 'the stored update 1' };
    expect(allSealedWithCurrentKey(current, [update], [onlyCurrent])).toBe(false);
    // A legacy token counts as current only while the vault has no other key.
    const legacy: ShardSecrets = { credentials: credentials(3, legacyOfCurrent), conversations: {} };
    expect(allSealedWithCurrentKey(current, [], [legacy])).toBe(true);
    expect(allSealedWithCurrentKey(vault, [], [legacy])).toBe(false);
  });
});
