/**
 * Helpers of the game shop tests: a user with the game shop connected, and a driver that walks the
 * order conversation. The worlds these helpers start loosen the bot's flood limit (its real
 * default is tested in test/bot/groups.test.ts), so an order runs as fast as the bot answers.
 */
import path from 'node:path';
import { startWorld, type TestWorld, type TestWorldOptions } from './app.ts';
import type { FloodLimit } from '../../src/bot/context.ts';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';
import { gameshopDemoKeys } from '../../tools/sandbox/gameshop.ts';
import type { GameOrderRecord } from '../../src/store/records/game-orders.ts';

/** The sample catalogue at the repository root (it describes the sandbox shop). */
export const sampleCataloguePath = path.resolve(import.meta.dirname, '../../catalogue.sample.json');

/**
 * A new user (Indonesian unless told) with the game shop connected. The key is seeded through the
 * credential service (one real GET /games), not /connect: connecting is someone else's subject.
 */
export async function shopper(world: TestWorld, firstName = 'Budi', languageCode = 'id'): Promise<EmulatedUser> {
  const user = world.telegram.createUser({ firstName, languageCode });
  await world.app.services.credentials.verifyAndSave(user.id, 'gameshop', { apiKey: gameshopDemoKeys.main });
  return user;
}

/** The full text of the first button of `message` whose text contains `part`. */
export function buttonWith(message: EmulatedMessage, part: string): string {
  const found = message.buttons.flat().find((text) => text.includes(part));
  if (found === undefined)
    throw new Error(`no button containing "${part}" under: ${message.text ?? '(no text)'}; buttons: ${JSON.stringify(message.buttons)}`);
  return found;
}

/** The URL buttons of a message as `{ text, url }`. */
export function urlButtons(message: EmulatedMessage): Array<{ text: string; url: string }> {
  return (message.inlineKeyboard?.inline_keyboard ?? [])
    .flat()
    .flatMap((button) => ('url' in button && button.url ? [{ text: button.text, url: button.url }] : []));
}

/** Text of every `code` entity of a message (what Telegram shows as tap-to-copy). */
export function codeTexts(message: EmulatedMessage): string[] {
  const text = message.message.text ?? message.message.caption ?? '';
  const entities = message.message.entities ?? message.message.caption_entities ?? [];
  return entities.filter((e) => e.type === 'code').map((e) => text.slice(e.offset, e.offset + e.length));
}

/** A flood limit no order test reaches: the game shop tests are not about flooding. */
export const looseFloodLimit: FloodLimit = { updates: 10_000, windowMs: 1000 };

/** Drives one user's chat: each action sends an update and resolves with the next bot message (optionally one that contains `expect`). */
export class ChatDriver {
  constructor(
    readonly world: TestWorld,
    readonly user: EmulatedUser,
  ) {}

  /** The highest message id in the chat so far (bot's or user's). */
  lastId(): number {
    return this.world.telegram.messages(this.user).reduce((max, m) => Math.max(max, m.messageId), 0);
  }

  /** Sends text and resolves with the next bot message (containing `expect`, when given). */
  async send(text: string, expect?: string | RegExp): Promise<EmulatedMessage> {
    const after = this.lastId();
    this.user.send(text);
    return this.world.telegram.waitForBotMessage(this.user, { after, ...(expect === undefined ? {} : { textIncludes: expect }) });
  }

  /** Taps the button of `message` whose text contains `part`; resolves with the next bot message (containing `expect`). */
  async tap(message: EmulatedMessage, part: string, expect?: string | RegExp): Promise<EmulatedMessage> {
    const after = this.lastId();
    this.user.tap(message, buttonWith(message, part));
    return this.world.telegram.waitForBotMessage(this.user, { after, ...(expect === undefined ? {} : { textIncludes: expect }) });
  }

  /** Taps without waiting for a message; resolves with the callback query id. */
  tapOnly(message: EmulatedMessage, part: string): Promise<string> {
    return Promise.resolve(this.user.tap(message, buttonWith(message, part)).id);
  }
}

/** What to answer in the order conversation; buttons are found by a part of their text. */
export interface OrderAnswers {
  /** Part of the game button, or typed when `typeGame`. Omit when the conversation starts with the game. */
  game?: string;
  /** Part of the product button, or the id to type (no catalogue). */
  product: string;
  /** Part of the payment method button, or the id to type (no catalogue). */
  method: string;
  catalogue: boolean;
  playerId: string;
  /** Typed server; `skip` taps Skip (optional server question); omitted when not asked. */
  server?: string;
  whatsapp: string;
  nickname?: string;
  email?: string;
  promo?: string;
  /** Button to tap (default `1`). */
  quantity?: string;
}

/**
 * Answers the order questions from the product on (or from the game question when `first` asks
 * for the game) and resolves with the summary. `first` is the bot's first question.
 */
export async function answerOrder(
  driver: ChatDriver,
  first: EmulatedMessage,
  answers: OrderAnswers,
  words = indonesian,
): Promise<EmulatedMessage> {
  let question = first;
  if (answers.game !== undefined) question = await driver.tap(question, answers.game);
  question = answers.catalogue ? await driver.tap(question, answers.product) : await driver.send(answers.product);
  question = answers.catalogue ? await driver.tap(question, answers.method) : await driver.send(answers.method);
  question = await driver.send(answers.playerId);
  if (answers.server === 'skip') question = await driver.tap(question, words.skip);
  else if (answers.server !== undefined) question = await driver.send(answers.server);
  question = await driver.send(answers.whatsapp);
  question = answers.nickname === undefined ? await driver.tap(question, words.skip) : await driver.send(answers.nickname);
  question = answers.email === undefined ? await driver.tap(question, words.skip) : await driver.send(answers.email);
  question = answers.promo === undefined ? await driver.tap(question, words.skip) : await driver.send(answers.promo);
  return driver.tap(question, answers.quantity ?? '1', words.summary);
}

export const indonesian = { skip: 'Lewati', summary: 'Ringkasan pesanan', confirm: 'Pesan sekarang' };
export const english = { skip: 'Skip', summary: 'Order summary', confirm: 'Order now' };

/** A world with the sample catalogue (it describes the sandbox shop). */
export const withCatalogue: TestWorldOptions = { env: { GAMESHOP_CATALOGUE: sampleCataloguePath } };

/** Free Fire, 70 Diamonds (Rp 9.500), QRIS: no server question with the catalogue. */
export const freeFire: OrderAnswers = {
  game: 'Free Fire',
  product: '70 Diamonds',
  method: 'QRIS',
  catalogue: true,
  playerId: '98765432',
  whatsapp: '081234567890',
};

/** Runs `test` in a world of its own (for concurrent tests, with the loose flood limit), stopping it afterwards. */
export async function inWorld(options: TestWorldOptions, test: (world: TestWorld) => Promise<void>): Promise<void> {
  const world = await startWorld({ ...options, app: { floodLimit: looseFloodLimit, ...options.app } });
  try {
    await test(world);
  } finally {
    await world.stop();
  }
}

/** A connected user who sends `command` (default /pesan); resolves with the driver and the bot's first answer. */
export async function startOrder(world: TestWorld, command = '/pesan', languageCode = 'id') {
  const user = await shopper(world, languageCode === 'id' ? 'Budi' : 'Jane', languageCode);
  const driver = new ChatDriver(world, user);
  const first = await driver.send(command);
  return { user, driver, first };
}

/** A stored order of `userId`, created `minutesAgo` before 2025-01-31 13:00 WIB. */
export function storedOrder(userId: number, n: number, minutesAgo: number): GameOrderRecord {
  const createdAt = new Date(Date.parse('2025-01-31T06:00:00Z') - minutesAgo * 60_000);
  return {
    orderId: `INV-20250131-${String(n).padStart(4, '0')}TEST`,
    userId,
    chatId: userId,
    game: 'free-fire',
    gameTitle: 'Free Fire',
    productId: 201,
    productName: '70 Diamonds',
    paymentMethodId: 2,
    paymentName: 'BCA Virtual Account',
    quantity: 1,
    totalPrice: 15_000 + n,
    paymentStatus: 'UNPAID',
    buyStatus: 'Pending',
    paymentUrl: `https://gameshop.sandbox.test/invoice/${n}`,
    paymentCode: '7001200000000000',
    qrUrl: null,
    expiredAt: new Date(createdAt.getTime() + 3_600_000).toISOString(),
    createdAt: createdAt.toISOString(),
  };
}
