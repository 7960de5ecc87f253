import { describe, expect, it } from 'vitest';
import { decodeHotFile, emptyHotData, hotFileVersion } from '../../src/store/schema.ts';
import { decodeUserShardFile, emptyUserShard } from '../../src/store/user-shards.ts';

const now = new Date('2026-11-22T07:00:00.000Z');
const user = { id: 7, firstName: 'Budi', active: true, createdAt: now.toISOString() };
const tx = {
  refId: 'r1',
  userId: 7,
  chatId: 7,
  code: 'TSEL10',
  productName: 'Telkomsel 10.000',
  target: '081234567890',
  price: 10500,
  status: 'Pending',
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
  checks: 0,
};

describe('the shop profile and the sell price in the data file', () => {
  it('a file from before them loads unchanged, without a migration', () => {
    const raw = { ...emptyHotData(now), transactions: { r1: tx } };
    const { data, migratedFrom } = decodeHotFile(JSON.parse(JSON.stringify(raw)), 'kiosbot.json');
    expect(migratedFrom).toBeUndefined();
    expect(data.version).toBe(hotFileVersion);
    const shard = decodeUserShardFile({ ...emptyUserShard(7), users: { '7': user } }, 'users/007.json');
    expect(shard.migratedFrom).toBeUndefined();
    expect(shard.data.users['7']?.shop).toBeUndefined();
    expect(data.transactions.r1?.sellPrice).toBeUndefined();
  });

  it('keeps a stored profile and sell price; refuses a profile without a name', () => {
    const shop = { name: 'Konter Budi', address: 'Jl. Melati 5', target: 'masked' };
    const raw = { ...emptyHotData(now), transactions: { r1: { ...tx, sellPrice: 12000 } } };
    const { data } = decodeHotFile(JSON.parse(JSON.stringify(raw)), 'kiosbot.json');
    expect(data.transactions.r1?.sellPrice).toBe(12000);
    const shard = { ...emptyUserShard(7), users: { '7': { ...user, shop } } };
    expect(decodeUserShardFile(JSON.parse(JSON.stringify(shard)), 'users/007.json').data.users['7']?.shop).toEqual(shop);
    const nameless = { ...emptyUserShard(7), users: { '7': { ...user, shop: { name: '', target: 'full' } } } };
    expect(() => decodeUserShardFile(JSON.parse(JSON.stringify(nameless)), 'users/007.json')).toThrow();
  });
});
