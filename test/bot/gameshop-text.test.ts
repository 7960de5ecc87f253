import { describe, expect, it } from 'vitest';
import { createI18n } from '../../src/bot/i18n.ts';
import type { Db } from '../../src/store/db.ts';
import type { Game } from '../../src/services/providers.ts';
import { renderGamesOverview } from '../../src/bot/renderers/gameshop.ts';
import { paymentStatusText } from '../../src/bot/renderers/game-order.ts';

// The production translate function; out of context it never reads the store.
const i18n = createI18n({ defaultLocale: 'id', db: {} as Db });
const inIndonesian = (key: string, variables?: Record<string, unknown>) => i18n.t('id', key, variables as never);
const inEnglish = (key: string, variables?: Record<string, unknown>) => i18n.t('en', key, variables as never);

/** `count` active games of category `categoryId`, with titles long enough to make /games list counts only. */
function games(categoryId: number, title: string, count: number): Game[] {
  return Array.from({ length: count }, (_, i) => ({
    id: categoryId * 100 + i,
    image: '',
    banner: '',
    title: `${title} ${i} — ${'a very long game title '.repeat(8)}`,
    developers: '',
    brand: '',
    category_id: categoryId,
    slug: `${title.toLowerCase()}-${i}`,
    description: '',
    status: true,
    populer: false,
    sort: categoryId * 100 + i,
    category: { id: categoryId, title },
  }));
}

describe('game shop texts', () => {
  it('counts games in the /games overview as each language does', () => {
    const list = [...games(1, 'MOBA', 1), ...games(2, 'RPG', 9), ...games(3, 'FPS', 1_200)];
    const id = renderGamesOverview(inIndonesian, list, []).text;
    expect(id).toContain('MOBA — 1 game');
    expect(id).toContain('RPG — 9 game');
    expect(id).not.toContain('games');
    expect(id).toContain('FPS — 1.200 game');
    const en = renderGamesOverview(inEnglish, list, []).text;
    expect(en).toContain('MOBA — 1 game\n');
    expect(en).toContain('RPG — 9 games');
    expect(en).toContain('FPS — 1,200 games');
  });

  it('translates payment statuses whatever their case, and keeps an unknown one as the shop wrote it', () => {
    expect(paymentStatusText(inIndonesian, 'UNPAID')).toBe('Belum dibayar');
    expect(paymentStatusText(inIndonesian, 'paid')).toBe('Sudah dibayar');
    expect(paymentStatusText(inIndonesian, 'Expired')).toBe('Kedaluwarsa');
    expect(paymentStatusText(inIndonesian, 'CANCELLED')).toBe('Dibatalkan');
    expect(paymentStatusText(inIndonesian, 'CANCELED')).toBe('Dibatalkan');
    expect(paymentStatusText(inIndonesian, 'FAILED')).toBe('Gagal');
    expect(paymentStatusText(inIndonesian, 'REFUNDED')).toBe('Dikembalikan');
    expect(paymentStatusText(inIndonesian, 'On <Hold>')).toBe('On &lt;Hold&gt;');
    expect(paymentStatusText(inEnglish, 'UNPAID')).toBe('Unpaid');
    expect(paymentStatusText(inEnglish, 'paid')).toBe('Paid');
    expect(paymentStatusText(inEnglish, 'Weird')).toBe('Weird');
  });
});
