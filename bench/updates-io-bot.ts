/**
 * The third bot of bench/updates.ts: a bare grammY bot that does the same outside work per update
 * as kiosbot and nothing else. It shows how much of the gap between kiosbot and the minimal bot
 * (which only replies) is the work money safety asks for, and how much is kiosbot's own code.
 *
 * Per update, as kiosbot:
 * - long polling through the same update inbox (src/store/inbox.ts): every private message sealed
 *   and written durably before the next getUpdates acknowledges it, marked done after handling;
 * - `/saldo`: the reseller's balance from the sandbox with the reseller client kiosbot uses
 *   (signed POST, answer checked), one call per request;
 * - `/harga` and a typed word: the account's price list, fetched once per account and kept;
 * - a quick-buy line (`TSEL10.0812…`): the pending purchase (code, target, price) sealed and
 *   written durably to its user's shard file (one file per `userId % 256`, atomic write with a
 *   backup, as the store does for conversation state) before the summary is sent;
 * - one `sendMessage` per update.
 *
 * What it leaves out is kiosbot's own work: the user record and its sealed credentials,
 * conversations and their replay, Fluent messages, menus and keyboards, the price view's
 * rendering and search, the middleware chain (flood limit, logging, crowding), the store's
 * change records.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Update } from 'grammy/types';
import { Bot } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import { createResellerClient, type ResellerClient } from '../src/providers/reseller/client.ts';
import type { Product } from '../src/providers/reseller/schemas.ts';
import { inboxGetUpdatesTransformer, markDoneAfterHandling } from '../src/server/update-inbox.ts';
import { writeFileAtomic } from '../src/store/atomic-file.ts';
import { inboxFileName, openInbox } from '../src/store/inbox.ts';
import { createVault } from '../src/store/vault.ts';

export interface IoBotWorld {
  token: string;
  apiRoot: string;
  botInfo: UserFromGetMe;
  resellerUrl: string;
  /** The provider account of each user id (as kiosbot's credentials in the same run). */
  accountOf(userId: number): { apiId: string; apiKey: string } | undefined;
}

export interface IoBot {
  /** The bot as the runner takes it, each update through the inbox's done marks (as kiosbot's pipeline does). */
  bot: Pick<Bot, 'init' | 'api' | 'errorHandler'> & { handleUpdate: (update: Update) => Promise<void> };
  close(): Promise<void>;
}

const shardCount = 256;

export async function startIoBot(world: IoBotWorld): Promise<IoBot> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'kiosbot-bench-io-bot-'));
  await mkdir(path.join(dataDir, 'users'));
  const vault = createVault({ key: Buffer.alloc(32, 42) });
  const inbox = await openInbox({ path: path.join(dataDir, inboxFileName), vault });
  const bot = new Bot(world.token, { botInfo: world.botInfo, client: { apiRoot: world.apiRoot } });
  // The inbox as the store contract offers it to kiosbot's transformer (same file, same writes).
  bot.api.config.use(
    inboxGetUpdatesTransformer({
      has: (updateId) => Promise.resolve(inbox.has(updateId)),
      addUpdates: async (updates) => (await inbox.add(updates)).map((update) => update.update_id),
      pruneDone: (limits) => Promise.resolve(inbox.pruneDone(limits)),
    }),
  );
  const handleUpdate = markDoneAfterHandling(inbox, { again: (update) => bot.handleUpdate(update).catch(() => undefined) })((update) =>
    bot.handleUpdate(update),
  );

  const clients = new Map<string, ResellerClient>();
  const clientOf = (userId: number) => {
    const account = world.accountOf(userId);
    if (!account) return undefined;
    let client = clients.get(account.apiId);
    if (!client) {
      client = createResellerClient({ baseURL: world.resellerUrl, ...account });
      clients.set(account.apiId, client);
    }
    return client;
  };
  const priceLists = new Map<ResellerClient, Promise<Product[]>>();
  const priceListOf = (client: ResellerClient) => {
    let list = priceLists.get(client);
    if (!list) {
      list = client.priceList();
      priceLists.set(client, list);
    }
    return list;
  };

  // Each shard's sealed pending purchases, written whole (one write at a time per shard, as the store's files).
  const shards = new Map<number, { states: Record<string, string>; writing: Promise<void> }>();
  const savePending = (userId: number, pending: { code: string; target: string; price: number }) => {
    const index = userId % shardCount;
    const shard = shards.get(index) ?? { states: {}, writing: Promise.resolve() };
    shards.set(index, shard);
    shard.states[userId] = vault.encrypt(JSON.stringify(pending), `user:${userId}:pending`);
    const file = path.join(dataDir, 'users', `${index}.json`);
    // After the shard's previous write, failed or not (as the store's queue of writes per file).
    const write = shard.writing
      .catch(() => undefined)
      .then(() => writeFileAtomic(file, JSON.stringify({ version: 1, states: shard.states }), { backup: true }));
    shard.writing = write;
    return write;
  };

  bot.on('message:text', async (ctx) => {
    const text = ctx.message.text;
    const client = clientOf(ctx.from.id);
    if (!client) return void (await ctx.reply('no account'));
    if (text === '/saldo') return void (await ctx.reply(`Saldo: Rp${(await client.balance()).toLocaleString('id-ID')}`));
    const products = await priceListOf(client);
    const quickBuy = /^([A-Z]+\d*)\.(\d{8,15})$/.exec(text);
    if (quickBuy) {
      const [, code = '', target = ''] = quickBuy;
      const product = products.find((item) => item.code === code);
      if (!product) return void (await ctx.reply('unknown product'));
      await savePending(ctx.from.id, { code, target, price: product.price });
      return void (await ctx.reply(`${product.product_name} → ${target}: Rp${product.price}. Confirm?`));
    }
    const word = text === '/harga' ? '' : text.toLowerCase();
    const lines = products.filter((item) => item.product_name.toLowerCase().includes(word)).slice(0, 10);
    await ctx.reply(lines.map((item) => `${item.code} ${item.product_name} Rp${item.price}`).join('\n') || 'none');
  });
  bot.catch((error) => console.error('io bot: update', error.ctx.update.update_id, String(error.error)));

  return {
    bot: { init: (...args) => bot.init(...args), api: bot.api, errorHandler: (error) => bot.errorHandler(error), handleUpdate },
    async close() {
      await Promise.all([...shards.values()].map((shard) => shard.writing.catch(() => undefined)));
      await inbox.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
