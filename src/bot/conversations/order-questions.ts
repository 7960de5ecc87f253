/**
 * The questions of the game order conversation: each asks through `question` (one message, its
 * buttons, one answer), checks the answer, asks again with the reason when it is unusable, and
 * writes it into the draft. Built anew on every replay of the conversation.
 */
import { z } from 'zod';
import type { TranslateFunction } from '@grammyjs/i18n';
import { formatRupiah, withoutFormatChars } from '../../text/format.ts';
import type { OrderChoice } from '../keyboards/gameshop.ts';
import { raw } from '../../text/html.ts';
import { orderFields } from '../renderers/game-order.ts';
import { normaliseWhatsapp } from '../../services/providers.ts';
import type { GameInfo, GameOrderDraft, ListedGame } from '../../services/game-orders.ts';

/** Game buttons offered when the game is asked for; above this only the popular ones are offered. */
const maxGameButtons = 30;
/** Product / payment-method buttons offered; the rest can be typed by id. */
const maxChoiceButtons = 60;
const maxPlayerIdLength = 64;
const maxServerLength = 32;
const maxNicknameLength = 100;
const maxEmailLength = 255;
const maxPromoLength = 50;
const maxQuantity = 1000;

const emailSchema = z.email();

/** A typed answer, or the value of a tapped choice (`skip` for "Skip"). */
export type Answer = { kind: 'text'; text: string } | { kind: 'choice'; value: string };

/** Asks one question (with `choices` as buttons, and "Skip" when optional) and resolves with the answer. */
export type AskQuestion = (text: string, choices?: OrderChoice[], options?: { columns?: number; skip?: boolean }) => Promise<Answer>;

/**
 * Asks `prompt` until `read` takes an answer, and resolves with what it made of it; otherwise
 * `read` returns the next prompt (why the answer was not taken; `asked`, the one just asked, repeats it).
 */
async function askUntil<T>(
  question: AskQuestion,
  prompt: string,
  choices: OrderChoice[],
  options: { columns?: number; skip?: boolean },
  read: (answer: Answer, asked: string) => { value: T } | string,
): Promise<T> {
  for (let text = prompt; ;) {
    const taken = read(await question(text, choices, options), text);
    if (typeof taken !== 'string') return taken.value;
    text = taken;
  }
}

/** Games whose slug or title matches typed text: exact matches first, else every word contained. */
export function matchGames<G extends { slug: string; title: string }>(games: readonly G[], typed: string): G[] {
  const query = typed.trim().toLowerCase();
  if (query === '') return [];
  const exact = games.filter((game) => game.slug === query || game.title.toLowerCase() === query);
  if (exact.length > 0) return exact;
  const words = query.split(/\s+/);
  return games.filter((game) => {
    const haystack = `${game.slug} ${game.slug.replace(/[-_]/g, ' ')} ${game.title.toLowerCase()}`;
    return words.every((word) => haystack.includes(word));
  });
}

/** A positive whole number typed by the user (digits only, separators allowed), or undefined. */
function parseId(text: string): number | undefined {
  const compact = text.trim().replace(/[\s.]/g, '');
  if (!/^\d{1,12}$/.test(compact)) return undefined;
  const value = Number(compact);
  return value > 0 ? value : undefined;
}

/** The id of the catalogue entry whose name is exactly `typed` (ignoring case), if there is one. */
function byName(entries: ReadonlyArray<{ id: number; name?: string }> | undefined, typed: string): number | undefined {
  const wanted = typed.trim().toLowerCase();
  return entries?.find((entry) => entry.name?.toLowerCase() === wanted)?.id;
}

/** Asks for the game: buttons (popular first; only the popular ones when there are many) or a typed name. */
export async function askGame(env: { t: TranslateFunction; question: AskQuestion; games: readonly ListedGame[] }): Promise<ListedGame> {
  const { t, question, games } = env;
  const ordered = [
    ...games.filter((game) => game.popular),
    ...games.filter((game) => !game.popular).sort((a, b) => a.category.localeCompare(b.category)),
  ];
  let offered = games.length <= maxGameButtons ? ordered : ordered.filter((game) => game.popular).slice(0, maxGameButtons);
  let prompt = t('order-ask-game');
  for (;;) {
    const answer = await question(
      prompt,
      offered.map((game) => ({ label: game.popular ? `🔥 ${game.title}` : game.title, value: String(games.indexOf(game)) })),
      { columns: 2 },
    );
    if (answer.kind === 'choice') {
      const chosen = games[Number(answer.value)];
      if (chosen) return chosen;
      continue;
    }
    const matches = matchGames(games, answer.text);
    const [only] = matches;
    if (matches.length === 1 && only) return only;
    if (matches.length === 0) {
      prompt = t('order-game-unknown', { text: answer.text.trim().slice(0, 50) });
      continue;
    }
    offered = matches.slice(0, 10);
    prompt = t('order-game-several');
  }
}

export interface OrderQuestionsEnv {
  t: TranslateFunction;
  question: AskQuestion;
  /** The answers so far; each question writes its own. */
  draft: GameOrderDraft;
  /** The chosen game and what the flow knows of it (a new game replaces both). */
  state: { game: ListedGame; info: GameInfo };
  /** The shop's active games. */
  games: readonly ListedGame[];
  /** What an order for `game` asks (an `external` step). */
  loadInfo: (game: ListedGame) => Promise<GameInfo>;
}

/** What each question needs: the flow's environment and the catalogue notice, said once per run. */
interface Asking extends OrderQuestionsEnv {
  /** Said once, the first time a numeric id is asked: the operator gave no (usable) catalogue, or it lacks this game. */
  catalogueNotice: () => string;
}

/** The questions after the game; each takes an `intro` said before the question (why it is asked again). */
export function createOrderQuestions(env: OrderQuestionsEnv) {
  const { t, state } = env;
  let catalogueNoticeShown = false;
  const asking: Asking = {
    ...env,
    catalogueNotice: () => {
      if (catalogueNoticeShown) return '';
      catalogueNoticeShown = true;
      if (state.info.catalogue !== 'ok') return `${t('order-no-catalogue')}\n\n`;
      return state.info.catalogued ? '' : `${t('order-game-not-in-catalogue', { game: state.info.title })}\n\n`;
    },
  };
  return {
    askProduct: (intro?: string) => askProduct(asking, intro),
    askMethod: (intro?: string) => askMethod(asking, intro),
    askPromo: (intro?: string) => askOptional(asking, 'promo', intro),
    askAll: () => askAll(asking),
    askFields: (fields: string[]) => askFields(asking, fields),
  };
}

/** Asks for the product: the catalogue's products as buttons, else its numeric id. */
async function askProduct(asking: Asking, intro = ''): Promise<void> {
  const { t, state } = asking;
  const { products, title } = state.info;
  asking.draft.product = await askEntry(asking, intro, products, {
    prompt: t(products ? 'order-ask-product' : 'order-ask-product-id', { game: title }),
    invalid: t(products ? 'order-product-invalid' : 'order-product-id-invalid'),
    label: (product) => {
      const name = product.name ?? `ID ${product.id}`;
      return product.price === undefined ? name : `${name} — ${formatRupiah(product.price)}`;
    },
  });
}

/** Asks for the payment method: the catalogue's methods as buttons, else its numeric id. */
async function askMethod(asking: Asking, intro = ''): Promise<void> {
  const { t, state } = asking;
  const methods = state.info.methods;
  asking.draft.method = await askEntry(asking, intro, methods, {
    prompt: t(methods ? 'order-ask-method' : 'order-ask-method-id'),
    invalid: t(methods ? 'order-method-invalid' : 'order-method-id-invalid'),
    label: (method) => method.name ?? `ID ${method.id}`,
    columns: 2,
  });
}

/**
 * Waits for a catalogue entry: a tapped button, a typed id or a typed name (of `entries`, when the
 * catalogue lists them; else the catalogue notice comes first), asking again with `invalid` until
 * the answer is one. An id the catalogue does not list is taken as it is.
 */
async function askEntry<E extends { id: number; name?: string }>(
  asking: Asking,
  intro: string,
  entries: readonly E[] | undefined,
  ask: { prompt: string; invalid: string; label: (entry: E) => string; columns?: number },
): Promise<E | { id: number }> {
  const choices = (entries ?? []).slice(0, maxChoiceButtons).map((entry) => ({ label: ask.label(entry), value: String(entry.id) }));
  const options = ask.columns === undefined ? {} : { columns: ask.columns };
  const prompt = `${intro}${entries ? '' : asking.catalogueNotice()}${ask.prompt}`;
  return askUntil(asking.question, prompt, choices, options, (answer) => {
    const id = answer.kind === 'choice' ? Number(answer.value) : (parseId(answer.text) ?? byName(entries, answer.text));
    if (id === undefined || !Number.isSafeInteger(id) || id <= 0) return ask.invalid;
    return { value: entries?.find((entry) => entry.id === id) ?? { id } };
  });
}

/**
 * The player id (and server) of the user's last order of this game, when it can be offered:
 * only the first time the id is asked, and with a server this game accepts.
 */
function lastPlayer({ draft, state }: Asking): { playerId: string; server?: string } | undefined {
  const { last, server: rule } = state.info;
  if (last?.playerId === undefined || draft.playerId !== undefined) return undefined;
  if (rule.kind === 'none') return { playerId: last.playerId };
  if (rule.kind === 'required' && (last.server === undefined || (rule.servers && !rule.servers.includes(last.server)))) return undefined;
  return last.server === undefined ? { playerId: last.playerId } : { playerId: last.playerId, server: last.server };
}

/** A "Use …" button offering a remembered value (the question says it can be tapped or replaced). */
function offerLast(t: TranslateFunction, value: string | undefined): OrderChoice[] {
  return value === undefined ? [] : [{ label: t('order-use-last', { value: raw(value) }), value: 'last' }];
}

/**
 * Asks for the player id. On the first ask it offers the id (and server) of the user's last
 * order of the game; tapping it settles the server too. Returns whether the server is settled.
 */
async function askPlayerId(asking: Asking, intro = ''): Promise<boolean> {
  const { t, question, draft } = asking;
  const { info } = asking.state;
  const label = info.idLabel ?? t('order-field-id');
  const last = lastPlayer(asking);
  const serverHint = info.server.kind === 'required' ? `\n${t('order-server-next', { server: info.server.label })}` : '';
  const lastHint = last ? `\n${t('order-use-last-hint')}` : '';
  const prompt = `${intro}${t('order-ask-player', { label, game: info.title })}${serverHint}${lastHint}`;
  const choices = offerLast(t, last && (last.server === undefined ? last.playerId : `${last.playerId} (${last.server})`));
  const chosen = await askUntil<{ playerId: string; server?: string; settled: boolean }>(question, prompt, choices, {}, (answer) => {
    if (answer.kind === 'choice' && last) return { value: { ...last, settled: true } };
    const value = answer.kind === 'text' ? withoutFormatChars(answer.text).trim() : '';
    if (value === '' || value.includes('\n')) return t('order-player-invalid', { label });
    if (value.length > maxPlayerIdLength) return t('order-too-long', { label, max: maxPlayerIdLength });
    // "12345678 (1234)": the zone glued to the id. The shop wants them apart.
    if (info.server.kind === 'required' && /^\S+\s*\(\s*\S+\s*\)$|^\d+\s+\d+$/.test(value)) {
      return t('order-player-with-server', { label, server: info.server.label });
    }
    return { value: { playerId: value, settled: false } };
  });
  draft.playerId = chosen.playerId;
  if (!chosen.settled) return false;
  if (chosen.server !== undefined && info.server.kind !== 'none') draft.server = chosen.server;
  else delete draft.server;
  return true;
}

/** Asks for the server; `required` after the shop asked for one. Skipped when the catalogue says the game has none. */
async function askServer(asking: Asking, required: boolean, intro = ''): Promise<void> {
  const { t, question, draft } = asking;
  const rule = asking.state.info.server;
  if (rule.kind === 'none' && !required) {
    delete draft.server;
    return;
  }
  const servers = rule.kind === 'required' ? rule.servers : undefined;
  const label = rule.kind === 'required' ? rule.label : t('order-field-server');
  const optional = !required && rule.kind !== 'required';
  const prompt = `${intro}${optional ? t('order-ask-server-optional') : servers ? t('order-ask-server-choice', { label }) : t('order-ask-server', { label })}`;
  const choices = (servers ?? []).map((server, index) => ({ label: server, value: String(index) }));
  const server = await askUntil(question, prompt, choices, { columns: 2, skip: optional }, (answer, asked) => {
    if (answer.kind === 'choice') {
      if (answer.value === 'skip') return { value: undefined };
      const chosen = servers?.[Number(answer.value)];
      return chosen === undefined ? asked : { value: chosen };
    }
    const value = withoutFormatChars(answer.text).trim();
    if (value === '' || value.length > maxServerLength || value.includes('\n'))
      return t('order-server-invalid', { label, max: maxServerLength });
    const listed = servers ? servers.find((server) => server.toLowerCase() === value.toLowerCase()) : value;
    return listed === undefined ? t('order-server-not-listed', { label }) : { value: listed };
  });
  if (server === undefined) delete draft.server;
  else draft.server = server;
}

/** Asks for the WhatsApp number; the first time, the one of the user's last order is offered. */
async function askWhatsapp(asking: Asking, intro = ''): Promise<void> {
  const { t, question, draft } = asking;
  const last = draft.whatsapp === undefined ? asking.state.info.last?.whatsapp : undefined;
  const prompt = `${intro}${t('order-ask-whatsapp')}${last ? `\n${t('order-use-last-hint')}` : ''}`;
  draft.whatsapp = await askUntil(question, prompt, offerLast(t, last), {}, (answer) => {
    const number = answer.kind === 'choice' ? last : normaliseWhatsapp(answer.text);
    return number === undefined ? t('order-whatsapp-invalid') : { value: number };
  });
}

/** The optional text answers: their question, longest value, the retry text and the check of a value. */
const optionalAnswers = {
  nickname: {
    ask: (t: TranslateFunction) => t('order-ask-nickname'),
    max: maxNicknameLength,
    invalid: (t: TranslateFunction) => t('order-too-long', { label: t('order-field-nickname'), max: maxNicknameLength }),
    valid: () => true,
  },
  email: {
    ask: (t: TranslateFunction) => t('order-ask-email'),
    max: maxEmailLength,
    invalid: (t: TranslateFunction) => t('order-email-invalid'),
    valid: (value: string) => emailSchema.safeParse(value).success,
  },
  promo: {
    ask: (t: TranslateFunction) => t('order-ask-promo'),
    max: maxPromoLength,
    invalid: (t: TranslateFunction) => t('order-promo-invalid-format', { max: maxPromoLength }),
    valid: (value: string) => !/\s/.test(value),
  },
};

/** Asks for an optional text answer ("Skip" clears it), asking again until it is short enough and valid. */
async function askOptional({ t, question, draft }: Asking, key: keyof typeof optionalAnswers, intro = ''): Promise<void> {
  const { ask, max, invalid, valid } = optionalAnswers[key];
  const value = await askUntil(question, `${intro}${ask(t)}`, [], { skip: true }, (answer) => {
    if (answer.kind === 'choice') return { value: undefined };
    const typed = withoutFormatChars(answer.text).trim();
    return typed === '' || typed.length > max || typed.includes('\n') || !valid(typed) ? invalid(t) : { value: typed };
  });
  if (value === undefined) delete draft[key];
  else draft[key] = value;
}

/** Asks for the quantity (1 to `maxQuantity`), with buttons for the usual ones. */
async function askQuantity(asking: Asking, intro = ''): Promise<void> {
  const { t, question, draft } = asking;
  const choices = [1, 2, 3, 5, 10].map((n) => ({ label: String(n), value: String(n) }));
  draft.quantity = await askUntil(question, `${intro}${t('order-ask-quantity')}`, choices, { columns: 5 }, (answer) => {
    const value = answer.kind === 'choice' ? Number(answer.value) : parseId(answer.text);
    const valid = value !== undefined && Number.isSafeInteger(value) && value >= 1 && value <= maxQuantity;
    return valid ? { value } : t('order-quantity-invalid', { max: maxQuantity });
  });
}

/** Every question after the game, in order. */
async function askAll(asking: Asking): Promise<void> {
  await askProduct(asking);
  await askMethod(asking);
  const serverSettled = await askPlayerId(asking);
  if (!serverSettled) await askServer(asking, false);
  await askWhatsapp(asking);
  for (const key of ['nickname', 'email', 'promo'] as const) await askOptional(asking, key);
  await askQuantity(asking);
}

/** Asks again for the fields the shop refused, in question order. */
async function askFields(asking: Asking, fields: string[]): Promise<void> {
  const { state } = asking;
  const wanted = orderFields.filter((field) => fields.includes(field));
  for (const field of wanted) {
    switch (field) {
      case 'game':
        state.game = await askGame(asking);
        state.info = await asking.loadInfo(state.game);
        await askProduct(asking);
        if (state.info.server.kind !== 'unknown') await askServer(asking, false);
        break;
      case 'product_id':
        if (!wanted.includes('game')) await askProduct(asking);
        break;
      case 'payment_method_id':
        await askMethod(asking);
        break;
      case 'id':
        await askPlayerId(asking);
        break;
      case 'server':
        if (!wanted.includes('game')) await askServer(asking, true);
        break;
      case 'whatsapp':
        await askWhatsapp(asking);
        break;
      case 'nickname':
      case 'email':
        await askOptional(asking, field);
        break;
      case 'promo_code':
        await askOptional(asking, 'promo');
        break;
      case 'quantity':
        await askQuantity(asking);
        break;
    }
  }
}
