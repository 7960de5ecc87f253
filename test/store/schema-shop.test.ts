import { describe, expect, it } from 'vitest';
import { decodeHotFile, emptyHotData, hotFileVersion } from '../../src/store/schema.ts';

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
    const raw = { ...emptyHotData(now), users: { '7': user }, transactions: { r1: tx } };
    const { data, migratedFrom } = decodeHotFile(JSON.parse(JSON.stringify(raw)), 'kiosbot.json');
    expect(migratedFrom).toBeUndefined();
    expect(data.version).toBe(hotFileVersion);
    expect(data.users['7']?.shop).toBeUndefined();
    expect(data.transactions.r1?.sellPrice).toBeUndefined();
  });

  it('keeps a stored profile and sell price; refuses a profile without a name', () => {
    const shop = { name: 'Konter Budi', address: 'Jl. Melati 5', target: 'masked' };
    const raw = { ...emptyHotData(now), users: { '7': { ...user, shop } }, transactions: { r1: { ...tx, sellPrice: 12000 } } };
    const { data } = decodeHotFile(JSON.parse(JSON.stringify(raw)), 'kiosbot.json');
    expect(data.users['7']?.shop).toEqual(shop);
    expect(data.transactions.r1?.sellPrice).toBe(12000);
    const nameless = { ...emptyHotData(now), users: { '7': { ...user, shop: { name: '', target: 'full' } } } };
    expect(() => decodeHotFile(JSON.parse(JSON.stringify(nameless)), 'kiosbot.json')).toThrow();
  });
});
