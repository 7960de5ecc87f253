/**
 * Pure renderers of /games (HTML): the overview (popular games, then the games by category) and
 * one category, each with its keyboard.
 */
import type { InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import type { Game } from '../../services/providers.ts';
import { escapeHtml } from '../../text/format.ts';
import { createCategoryKeyboard, createGamesKeyboard } from '../keyboards/gameshop.ts';

/** Above this length the /games overview lists categories with their counts instead of every game. */
const maxOverviewLength = 3500;

/** A game's category, for grouping (games of `populerGames` carry none). */
interface Category {
  id: number;
  title: string;
  games: Game[];
}

/** The active games grouped by category, in the shop's sort order (categories by their first game). */
function groupByCategory(games: readonly Game[]): Category[] {
  const byId = new Map<number, Category>();
  for (const game of [...games].filter((g) => g.status).sort((a, b) => a.sort - b.sort)) {
    const id = game.category?.id ?? game.category_id;
    const category = byId.get(id) ?? { id, title: game.category?.title || '—', games: [] };
    category.games.push(game);
    byId.set(id, category);
  }
  return [...byId.values()];
}

/** The /games overview: popular first, then each category with its games (or only counts when long). */
export function renderGamesOverview(
  t: TranslateFunction,
  games: readonly Game[],
  popular: readonly Game[],
): { text: string; keyboard: InlineKeyboard } {
  const active = new Set(games.filter((g) => g.status).map((g) => g.slug));
  const hot = [...popular].filter((game) => game.status && active.has(game.slug)).sort((a, b) => a.sort - b.sort);
  const categories = groupByCategory(games);
  const head = [t('games-title'), ''];
  if (hot.length > 0) head.push(t('games-popular'), ...hot.map((game) => `• ${escapeHtml(game.title)}`), '');
  const full = categories.flatMap((category) => [
    t('games-category', { category: category.title }),
    ...category.games.map((game) => `• ${escapeHtml(game.title)}`),
    '',
  ]);
  const compact = categories.map((category) => t('games-category-count', { category: category.title, count: category.games.length }));
  const tail = ['', t('games-hint')];
  let text = [...head, ...full, ...tail].join('\n');
  if (text.length > maxOverviewLength) text = [...head, ...compact, ...tail].join('\n');
  if (games.length === 0) text = t('games-none');
  const keyboard = createGamesKeyboard(
    t,
    hot,
    categories.map((category) => ({ id: category.id, title: category.title, count: category.games.length })),
  );
  return { text, keyboard };
}

/** One category of /games. Undefined when the shop no longer lists it. */
export function renderCategory(
  t: TranslateFunction,
  games: readonly Game[],
  categoryId: number,
): { text: string; keyboard: InlineKeyboard } | undefined {
  const category = groupByCategory(games).find((c) => c.id === categoryId);
  if (!category) return undefined;
  const text = [
    t('games-category', { category: category.title }),
    ...category.games.map((game) => `• ${escapeHtml(game.title)}`),
    '',
    t('games-category-hint'),
  ].join('\n');
  return { text, keyboard: createCategoryKeyboard(t, category.games) };
}
