import { describe, expect, it } from 'vitest';
import {
  applyLevelLines,
  downlinePrice,
  invitePayload,
  inviteState,
  newDownlineMode,
  newLevelId,
  readInvitePayload,
} from '../../src/services/downline-rules.ts';
import { emptySellRules, sellPriceOf } from '../../src/services/pricing.ts';
import type { DownlineMode, SellRules } from '../../src/store/records/users.ts';

const now = new Date('2026-12-01T03:00:00Z');
const tsel10 = { code: 'TSEL10', product_name: 'Telkomsel 10.000', price: 10_450 };
const xl5 = { code: 'XL5', product_name: 'XL 5.000', price: 5_300 };

/** An upline's mode with Bronze (default, +Rp 1.000), Silver (+2%, rounded to Rp 100, Telkomsel +Rp 300) and Gold (TSEL10 at an exact price). */
function mode(): DownlineMode {
  const levels = (lines: string[]): SellRules => {
    const applied = applyLevelLines(emptySellRules(), lines);
    if ('problems' in applied) throw new Error(JSON.stringify(applied.problems));
    return applied.rules;
  };
  return {
    ...newDownlineMode(now),
    levels: [
      { id: 'bronze', name: 'Bronze', rules: levels(['Rp 1.000']) },
      { id: 'silver', name: 'Silver', rules: levels(['2%', 'bulat 100', 'brand TELKOMSEL 300']) },
      { id: 'gold', name: 'Gold', rules: levels(['1%', 'produk TSEL10 =10500']) },
    ],
  };
}

describe('a downline price: their level over the upline cost', () => {
  it('applies the level of the downline: default markup, brand override, exact product price', () => {
    const m = mode();
    expect(downlinePrice(m, { levelId: 'bronze' }, tsel10)).toMatchObject({ cost: 10_450, sell: 11_450, margin: 1_000, rule: 'default' });
    expect(downlinePrice(m, { levelId: 'silver' }, tsel10)).toMatchObject({ sell: 10_800, rule: 'brand' });
    // 5.300 + 2% = 5.406, rounded up to Rp 100.
    expect(downlinePrice(m, { levelId: 'silver' }, xl5)).toMatchObject({ sell: 5_500, rule: 'default' });
    expect(downlinePrice(m, { levelId: 'gold' }, tsel10)).toMatchObject({ sell: 10_500, margin: 50, rule: 'product' });
    expect(downlinePrice(m, { levelId: 'gold' }, xl5)).toMatchObject({ sell: 5_353 });
  });

  it('is the /jual rule itself, and a level that is gone prices at the default level', () => {
    const m = mode();
    expect(downlinePrice(m, { levelId: 'silver' }, xl5)).toEqual(sellPriceOf(m.levels[1]?.rules, xl5));
    expect(downlinePrice(m, { levelId: 'removed' }, tsel10)).toEqual(downlinePrice(m, { levelId: 'bronze' }, tsel10));
    // A new mode's level sells at cost until its rules are set.
    expect(downlinePrice(newDownlineMode(now), { levelId: 'bronze' }, tsel10)).toMatchObject({ sell: 10_450, margin: 0 });
  });

  it('level lines that do not read are named and nothing applies', () => {
    expect(applyLevelLines(emptySellRules(), ['2%', 'brand XL banyak', 'bulat 300', '10', 'produk TSEL10 20000%'])).toEqual({
      problems: [
        { line: 'brand XL banyak', reason: 'unreadable' },
        { line: 'bulat 300', reason: 'unreadable' },
        { line: '10', reason: 'ambiguous' },
        { line: 'produk TSEL10 20000%', reason: 'too-large' },
      ],
    });
    const removed = applyLevelLines({ ...emptySellRules(), products: { TSEL10: { kind: 'price', price: 1 } } }, ['produk tsel10 hapus']);
    expect(removed).toEqual({ rules: emptySellRules() });
  });
});

describe('invites', () => {
  it('a payload names its upline and invite; others do not read', () => {
    expect(readInvitePayload(invitePayload(700000001, 'AbC23xYz9k'))).toEqual({ uplineId: 700000001, inviteId: 'AbC23xYz9k' });
    for (const bad of ['dl_', 'dl_12_ab', 'dl_x_abcdefgh', 'inline', 'dl_12_abcdefgh!']) expect(readInvitePayload(bad)).toBeUndefined();
  });

  it('an invite is active until revoked, expired or used up', () => {
    const invite = { id: 'abcdefgh', createdAt: now.toISOString(), uses: 1 };
    expect(inviteState(invite, now)).toBe('active');
    expect(inviteState({ ...invite, maxUses: 1 }, now)).toBe('used-up');
    expect(inviteState({ ...invite, expiresAt: now.toISOString() }, now)).toBe('expired');
    expect(inviteState({ ...invite, expiresAt: now.toISOString(), revokedAt: now.toISOString() }, now)).toBe('revoked');
  });

  it('a new level id comes from its name and is never one in use', () => {
    const m = mode();
    expect(newLevelId(m, 'Platinum')).toBe('platinum');
    expect(newLevelId(m, 'GOLD')).toBe('l2');
    expect(newLevelId(m, 'Émas')).toBe('mas');
    expect(newLevelId(m, '金')).toBe('l2');
  });
});
