import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { StoreVersionError } from '../../src/store/errors.ts';
import {
  decodeHistoryFile,
  decodeHotFile,
  emptyHotData,
  hotFileMigrations,
  hotFileSchema,
  hotFileVersion,
  legacyUserPartSchema,
  migrate,
} from '../../src/store/schema.ts';
import { isFinalStatus } from '../../src/store/records/transactions.ts';
import { decodeUserShardFile, emptyUserShard } from '../../src/store/user-shards.ts';

/** What a hot file of version 3 (before the split) holds of users, credentials and conversations. */
const legacyUserPart = (raw: unknown) => legacyUserPartSchema.parse(migrate(raw, 'kiosbot.json', hotFileMigrations.slice(0, 2), 3).value);

const fixtureV1 = new URL('./fixtures/kiosbot-v1.json', import.meta.url);
const readV1 = (): Record<string, unknown> => JSON.parse(readFileSync(fixtureV1, 'utf8')) as Record<string, unknown>;
const at = new Date('2025-02-01T00:00:00.000Z');

describe('hot file migrations', () => {
  it('form a chain from version 1 to the current version', () => {
    hotFileMigrations.forEach((migration, index) => {
      expect(migration.from).toBe(index + 1);
      expect(migration.to).toBe(index + 2);
    });
    expect(hotFileMigrations.at(-1)?.to).toBe(hotFileVersion);
  });

  it('upgrade the v1 fixture: an empty outbox, transactions counting checks, data kept', () => {
    const { data, migratedFrom } = decodeHotFile(readV1(), 'kiosbot.json', at);
    expect(migratedFrom).toBe(1);
    expect(data.version).toBe(hotFileVersion);
    expect(data.outbox).toEqual({});
    expect(data.transactions['01JH0000000000000000000001']).toMatchObject({ status: 'Pending', checks: 0, price: 10250 });
    // Users and credentials go to the shard files (the store writes them there before this step).
    expect(data).not.toHaveProperty('users');
    expect(data).not.toHaveProperty('credentials');
    expect(data.pendingUsers).toEqual({});
    const legacy = legacyUserPart(readV1());
    expect(legacy.users['1001']).toMatchObject({ firstName: 'Siti', username: 'siti_pulsa', locale: 'id', active: true });
    expect(legacy.credentials['1001:reseller']?.label).toBe('RS-00**');
    expect(data.meta.lastMigration).toEqual({ from: 1, to: hotFileVersion, at: at.toISOString() });
  });

  it('leave a current file as it is', () => {
    const current = emptyHotData(at);
    const { data, migratedFrom } = decodeHotFile(JSON.parse(JSON.stringify(current)), 'kiosbot.json');
    expect(migratedFrom).toBeUndefined();
    expect(data).toEqual(current);
  });

  it('refuse a file from a newer kiosbot with a clear error', () => {
    const newer = { ...emptyHotData(at), version: hotFileVersion + 1 };
    expect(() => decodeHotFile(newer, '/data/kiosbot.json')).toThrow(StoreVersionError);
    expect(() => decodeHotFile(newer, '/data/kiosbot.json')).toThrow(
      new RegExp(`version ${hotFileVersion + 1}.*only understands up to version ${hotFileVersion}.*newer kiosbot`),
    );
  });

  it('refuse a file without a version number', () => {
    const { version: _version, ...unversioned } = emptyHotData(at);
    expect(() => decodeHotFile(unversioned, 'kiosbot.json')).toThrow(/no valid "version"/);
    expect(() => decodeHotFile([], 'kiosbot.json')).toThrow(/not a JSON object/);
  });
});

describe('hotFileSchema', () => {
  it('refuses records filed under the wrong key', () => {
    const data = emptyHotData(at);
    data.pendingUsers['1'] = { id: 2, firstName: 'A', active: true, createdAt: at.toISOString() };
    expect(hotFileSchema.safeParse(data).success).toBe(false);
    const shard = { ...emptyUserShard(1), users: { '1': { id: 2, firstName: 'A', active: true, createdAt: at.toISOString() } } };
    expect(() => decodeUserShardFile(shard, 'users/001.json')).toThrow();
  });

  it('keeps unknown provider statuses verbatim', () => {
    const history = {
      version: 1,
      month: '2025-01',
      transactions: {
        r1: {
          refId: 'r1',
          userId: 1,
          chatId: 1,
          code: 'X',
          productName: 'X',
          target: '1',
          price: 1,
          status: 'Diproses',
          createdAt: at.toISOString(),
          updatedAt: at.toISOString(),
          checks: 2,
        },
      },
    };
    expect(decodeHistoryFile(history, 'h.json').data.transactions.r1?.status).toBe('Diproses');
  });
});

describe('isFinalStatus', () => {
  it('is true for Sukses, Gagal and Unresolved only', () => {
    expect(['Sukses', 'Gagal', 'Unresolved'].every(isFinalStatus)).toBe(true);
    expect(['Created', 'Pending', 'Diproses', 'sukses'].some(isFinalStatus)).toBe(false);
  });
});

describe('migration to v3', () => {
  it('adds an empty set of game orders to a v2 file and keeps everything else', () => {
    const v2 = { ...emptyHotData(at), version: 2, credentials: {}, conversations: {} } as Record<string, unknown>;
    delete v2.gameOrders;
    delete v2.pendingUsers;
    v2.users = { '7': { id: 7, firstName: 'Sari', active: true, createdAt: at.toISOString() } };
    const upgraded = decodeHotFile(v2, 'kiosbot.json');
    expect(upgraded.data.gameOrders).toEqual({});
    expect(legacyUserPart(v2).users['7']?.firstName).toBe('Sari');
    expect(upgraded.data.version).toBe(hotFileVersion);
  });
});

describe('sell prices in the data files', () => {
  it('load files from before sell prices (no rules, no sell price) and keep rules and sell prices once stored', () => {
    const old = decodeHotFile(readV1(), 'kiosbot.json', at).data;
    const oldUsers = legacyUserPart(readV1()).users;
    expect(Object.values(oldUsers).every((user) => user.sellRules === undefined)).toBe(true);
    expect(Object.values(old.transactions).every((tx) => tx.sellPrice === undefined && tx.margin === undefined)).toBe(true);
    const [user] = Object.values(oldUsers);
    const [tx] = Object.values(old.transactions);
    if (!user || !tx) throw new Error('the v1 fixture has a user and a transaction');
    const sellRules = {
      default: { kind: 'percent', percent: 2.5 },
      step: 500,
      brands: { XL: { kind: 'fixed', amount: -100 } },
      products: {},
    };
    const withSell = { ...old, transactions: { [tx.refId]: { ...tx, sellPrice: 11_000, margin: 550 } } };
    const { data } = decodeHotFile(JSON.parse(JSON.stringify(withSell)), 'kiosbot.json');
    expect(data.transactions[tx.refId]).toMatchObject({ sellPrice: 11_000, margin: 550 });
    const shard = { ...emptyUserShard(0), users: { [String(user.id)]: { ...user, sellRules } } };
    expect(decodeUserShardFile(JSON.parse(JSON.stringify(shard)), 'users/000.json').data.users[String(user.id)]?.sellRules).toEqual(
      sellRules,
    );
    const broken = { ...shard, users: { [String(user.id)]: { ...user, sellRules: { ...sellRules, step: 0 } } } };
    expect(() => decodeUserShardFile(JSON.parse(JSON.stringify(broken)), 'users/000.json')).toThrow();
  });
});
