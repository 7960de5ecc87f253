import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InlineQueryResult, InlineQueryResultArticle } from 'grammy/types';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { seedConnectedUser, seedPurchase } from '../helpers/seed-transactions.ts';
import { resellerDemoProducts } from '../../tools/sandbox/reseller.ts';
import { formatRupiah } from '../../src/text/format.ts';
import type { EmulatedUser, InlineAnswer } from '../../tools/playground/bot-api.ts';
import type { SellPriceOf } from '../../src/services/pricing.ts';
import { tsel10Cost, uplineAndDownline } from '../helpers/downline-world.ts';

/** A markup the pricing module could set: Rp 1.550 on top of the cost, so every sell price differs from its cost. */
const markup = 1550;
const sellPriceOf: SellPriceOf = (_userId, product) => product.price + markup;

const costOf = (code: string): number => {
  const product = resellerDemoProducts.find((p) => p.code === code);
  if (!product) throw new Error(`no sandbox product ${code}`);
  return product.price;
};

const articles = (answer: InlineAnswer): InlineQueryResultArticle[] =>
  answer.results.filter((r: InlineQueryResult): r is InlineQueryResultArticle => r.type === 'article');

const cardText = (result: InlineQueryResultArticle): string =>
  'message_text' in result.input_message_content ? result.input_message_content.message_text : '';

describe('inline mode: @bot tsel 10 shares sell prices', () => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await startWorld({ telegram: { inlineMode: true }, app: { sellPriceOf } });
  });
  afterEach(async () => {
    await world.stop();
  });

  const ask = (user: EmulatedUser, query: string, offset?: string): Promise<InlineAnswer> =>
    world.telegram.waitForInlineAnswer(world.telegram.sendInlineQuery(user, query, { offset, chatType: 'private' }));

  it("lists a connected reseller's matching products with their sell prices, personal and briefly cached", async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    const answer = await ask(budi, 'tsel 10');
    const [first] = articles(answer);
    expect(first?.title).toBe('Telkomsel 10.000');
    expect(first?.description).toContain(formatRupiah(costOf('TSEL10') + markup));
    expect(cardText(first!)).toContain('Telkomsel 10.000');
    expect(cardText(first!)).toContain(`<b>${formatRupiah(costOf('TSEL10') + markup)}</b>`);
    expect(cardText(first!)).toContain('Tersedia');
    expect(answer.isPersonal).toBe(true);
    expect(answer.cacheTime).toBeLessThanOrEqual(30);
    expect(answer.nextOffset).toBeUndefined();
  });

  it('never shows the cost when the sell price differs, in any result', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    for (const query of ['tsel', 'pulsa', 'ml', '']) {
      const answer = await ask(budi, query);
      expect(answer.results.length).toBeGreaterThan(0);
      for (const result of articles(answer)) {
        const product = resellerDemoProducts.find((p) => p.name === result.title)!;
        const shown = JSON.stringify(result);
        expect(shown).toContain(formatRupiah(product.price + markup));
        expect(shown).not.toContain(formatRupiah(product.price));
        expect(shown).not.toContain(String(product.price));
      }
    }
  });

  it('says a product is unavailable, and puts the shop name on the card when the reseller has one', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    await world.app.db.users.upsert({ id: budi.id, firstName: 'Budi' });
    await world.app.db.users.update(budi.id, { shop: { name: 'Kios Budi Jaya', target: 'masked' } });
    const [card] = articles(await ask(budi, 'tsel 150'));
    expect(card?.title).toBe('Telkomsel 150.000');
    expect(cardText(card!)).toContain('Kios Budi Jaya');
    expect(cardText(card!)).toMatch(/Tidak tersedia.*gangguan/);
  });

  it('speaks English to an English user', async () => {
    const ann = await seedConnectedUser(world, 'Ann', { languageCode: 'en' });
    const [card] = articles(await ask(ann, 'xl 10'));
    expect(card?.title).toBe('XL 10.000');
    expect(cardText(card!)).toContain('Price');
    expect(cardText(card!)).toContain('Available');
    expect(card?.description).toContain('Available');
  });

  it('gives a user without a reseller account an empty list and a button; /start from it says how to connect', async () => {
    const joe = world.telegram.createUser({ firstName: 'Joe', languageCode: 'id' });
    const answer = await ask(joe, 'tsel 10');
    expect(answer.results).toEqual([]);
    expect(answer.button?.text).toMatch(/Hubungkan/);
    const parameter = answer.button?.start_parameter ?? '';
    expect(parameter).not.toBe('');
    const reply = await world.telegram.waitForBotMessage(joe, { after: joe.send(`/start ${parameter}`) });
    expect(reply.text).toContain('/connect');
  });

  it('gives a banned reseller nothing but the button', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    await world.app.db.users.upsert({ id: budi.id, firstName: 'Budi' });
    await world.app.db.users.update(budi.id, { ban: { at: new Date().toISOString(), by: 1 } });
    const answer = await ask(budi, 'tsel 10');
    expect(answer.results).toEqual([]);
    expect(answer.button?.start_parameter).toBeTruthy();
  });

  it('says so when nothing matches, on the button that opens the bot', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    const answer = await ask(budi, 'zzzqqq');
    expect(answer.results).toEqual([]);
    expect(answer.button?.text).toContain('zzzqqq');
    expect(answer.button?.text).toMatch(/Tidak ada/);
  });

  it('pages through a long list with next_offset, most-bought products first on an empty query', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    await seedPurchase(world, budi, { code: 'XL25', productName: 'XL 25.000', price: costOf('XL25') });
    await seedPurchase(world, budi, { code: 'PLN20', productName: 'PLN 20.000', price: costOf('PLN20') });
    await seedPurchase(world, budi, { code: 'PLN20', productName: 'PLN 20.000', price: costOf('PLN20') });

    const seen: string[] = [];
    let offset: string | undefined = '';
    let pages = 0;
    while (offset !== undefined) {
      const answer = await ask(budi, '', offset);
      expect(answer.results.length).toBeLessThanOrEqual(50);
      seen.push(...answer.results.map((r) => r.id));
      offset = answer.nextOffset;
      pages += 1;
    }
    expect(pages).toBeGreaterThan(1);
    expect(seen.slice(0, 2)).toEqual(['PLN20', 'XL25']);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(resellerDemoProducts.length);
  });

  it('reads the cached price list: typing a query letter by letter fetches it once, and is not flood-limited', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    const fetches = () => world.sandbox.received.filter((r) => r.service === 'reseller' && r.path === '/price-list').length;
    const before = fetches();
    const typed = 'telkomsel 100.000';
    const answers = await Promise.all([...typed].map((_, i) => ask(budi, typed.slice(0, i + 1))));
    expect(answers).toHaveLength(typed.length);
    expect(articles(answers.at(-1)!)[0]?.title).toBe('Telkomsel 100.000');
    expect(fetches() - before).toBe(1);
    // Typing did not use up the flood limit: a message right after is answered.
    const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo') });
    expect(reply.text).toContain('Saldo');
  });

  it('says the price list cannot be read when the provider fails, and caches nothing', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    world.sandbox.inject({ service: 'reseller', path: '/price-list', fault: { kind: 'malformed' } });
    const answer = await ask(budi, 'tsel 10');
    expect(answer.results).toEqual([]);
    expect(answer.cacheTime).toBe(0);
    expect(answer.button?.text).toMatch(/Daftar harga belum bisa dibuka/);
    expect(articles(await ask(budi, 'tsel 10'))[0]?.title).toBe('Telkomsel 10.000');
  });

  it('an answer Telegram finds too late is logged as a warning, not reported as a bot error', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    world.telegram.injectError({
      method: 'answerInlineQuery',
      errorCode: 400,
      description: 'Bad Request: query is too old and response timeout expired or query ID is invalid',
    });
    world.telegram.sendInlineQuery(budi, 'tsel 10');
    await world.idle();
    expect(world.telegram.callsTo('answerInlineQuery')).toHaveLength(1);
    expect(world.logs.filter((line) => line.includes('"level":"error"'))).toEqual([]);
    expect(world.logs.some((line) => line.includes('inline query answered too late'))).toBe(true);
  });

  it('/start from the button tells a connected reseller how to share prices', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send('/start inline') });
    expect(reply.text).toContain(`@${world.telegram.botInfo.username} tsel 10`);
  });

  it('a chosen price card is posted via the bot, and the bot does not take it for a search', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    const answer = await ask(budi, 'tsel 10');
    const before = world.telegram.botMessages(budi).length;
    const sent = world.telegram.chooseInlineResult(budi, answer, 'TSEL10');
    expect(sent.text).toContain(formatRupiah(costOf('TSEL10') + markup));
    expect(sent.text).not.toContain(formatRupiah(costOf('TSEL10')));
    await world.idle();
    expect(world.telegram.botMessages(budi)).toHaveLength(before);
  });
});

describe("inline mode with the reseller's own /jual rules", () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  it('prices each card by the rules of /jual: a brand markup, a product price, the cost without a rule', async () => {
    world = await startWorld({ telegram: { inlineMode: true } });
    const budi = await seedConnectedUser(world, 'Budi');
    const ask = (query: string) => world.telegram.waitForInlineAnswer(world.telegram.sendInlineQuery(budi, query, { chatType: 'private' }));
    const before = articles(await ask('tsel 10'))[0];
    expect(before?.description).toContain(formatRupiah(costOf('TSEL10')));

    await world.telegram.waitForBotMessage(budi, { after: budi.send('/jual 1000'), textIncludes: '1.000' });
    const after = articles(await ask('tsel 10'))[0];
    expect(after?.description).toContain(formatRupiah(costOf('TSEL10') + 1000));
    expect(JSON.stringify(after)).not.toContain(formatRupiah(costOf('TSEL10')));
  });
});

describe("inline mode for a downline (DOWNLINES=true): their level prices, never the upline's cost", () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  it('shows the level price, then their own /jual price over it; /start inline explains, not /connect', async () => {
    world = await startWorld({ telegram: { inlineMode: true }, env: { DOWNLINES: 'true' } });
    const { sari } = await uplineAndDownline(world);
    const ask = async (query: string) =>
      articles(await world.telegram.waitForInlineAnswer(world.telegram.sendInlineQuery(sari, query, { chatType: 'private' })));
    const [card] = await ask('tsel 10');
    expect(card?.title).toBe('Telkomsel 10.000');
    expect(cardText(card!)).toContain(`<b>${formatRupiah(tsel10Cost + 500)}</b>`);
    for (const result of await ask('')) expect(JSON.stringify(result)).not.toContain(formatRupiah(tsel10Cost));

    await world.telegram.waitForBotMessage(sari, { after: sari.send('/jual 1000'), textIncludes: '1.000' });
    const [sold] = await ask('tsel 10');
    expect(sold?.description).toContain(formatRupiah(tsel10Cost + 500 + 1000));
    expect(JSON.stringify(sold)).not.toMatch(/10\.450|10\.950/);

    const help = await world.telegram.waitForBotMessage(sari, { after: sari.send('/start inline') });
    expect(help.text).toContain('tsel 10');
    expect(help.text).not.toContain('/connect');
  });
});
