/**
 * Privacy of downlines (issue 31): a whole day of an upline and three downlines at two levels (one reading English) —
 * joins, deposits accepted, purchases Sukses, Gagal (refunded), Pending then settled either way
 * by the watcher, short of the wallet, re-asked after the upline's cost changed at the tap,
 * refused by the upline's low provider balance, receipts and the customer receipt, /saldo,
 * /mutasi, /riwayat, /cek, /harga, /laporan, the /ekspor CSV — and then every message (each version of it), caption,
 * button (label and data) and callback answer the bot sent to each downline's chat is scanned
 * for what only the upline may know: their cost of each product bought, the margins, their
 * provider balance at any moment, their API ID and key; and for the other downlines' names,
 * usernames, ids, targets, deposits and wallet balances.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { buyer, waitForSummary } from '../helpers/buy.ts';
import { resellerDemoAccounts, resellerDemoProducts } from '../../tools/sandbox/reseller.ts';
import type { EmulatedUser } from '../../tools/playground/bot-api.ts';

const payInfo = 'BCA 1234567890 a.n. Budi Santoso';
const { apiId, apiKey } = resellerDemoAccounts.main;
const costOf = (code: string) => resellerDemoProducts.find((p) => p.code === code)!.price;
/** What TSEL10 costs the upline after the provider's price change mid-day. */
const newTsel10Cost = 10_600;
/** Rupiah as the bot writes them (`10.450`). */
const grouped = (n: number) => new Intl.NumberFormat('id-ID').format(n);
/** `n` written anywhere as an amount: not inside a longer number or a word (`TSEL200`). */
const amountPattern = (n: number) => new RegExp(`(?<![\\w.,])${grouped(n).replace(/\./g, '\\.')}(?!\\w|[.,]\\d)`);
const idPattern = (id: number) => new RegExp(`(?<!\\d)(${id}|${grouped(id).replace(/\./g, '\\.')})(?!\\d)`);

/** What the tests wait for, in each downline's language (Wati reads English). */
const words = {
  id: {
    joined: 'Anda sekarang downline',
    ticket: 'Tiket deposit',
    transfer: /Transfer tepat Rp ([\d.]+)/,
    credited: 'diterima oleh Budi',
    confirm: '✅ Konfirmasi',
    success: 'Sukses',
    failed: 'Gagal',
    pending: 'Sedang diproses',
    unavailable: 'sedang tidak tersedia',
    settled: { Sukses: 'Transaksi sukses', Gagal: 'Transaksi gagal' },
    page: 'halaman 1/',
    short: 'kurang',
    today: 'Hari ini',
    exportMenu: 'Ekspor transaksi',
  },
  en: {
    joined: 'You are now a downline',
    ticket: 'Deposit ticket',
    transfer: /Transfer exactly Rp ([\d.]+)/,
    credited: 'accepted by Budi',
    confirm: '✅ Confirm',
    success: 'Success',
    failed: 'Failed',
    pending: 'Being processed',
    unavailable: 'unavailable for now',
    settled: { Sukses: 'Transaction succeeded', Gagal: 'Transaction failed' },
    page: 'page 1/',
    short: 'short',
    today: 'Today',
    exportMenu: 'Export transactions',
  },
} as const;

interface Downline {
  user: EmulatedUser;
  words: (typeof words)['id' | 'en'];
  level: 'Bronze' | 'Gold';
  deposit: number;
  /** The unique amount credited. */
  credited: number;
  targets: string[];
}

describe('a downline sees nothing of the upline nor of the other downlines (DOWNLINES=true)', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  /** Every text the bot put in `user`'s chat: messages with each earlier version, buttons with their data, callback answers. */
  const everythingSentTo = (user: EmulatedUser): string[] => {
    const texts: string[] = [];
    for (const m of world.telegram.botMessages(user)) {
      for (const version of [...m.history, m.message]) texts.push(`#${m.messageId}: ${version.text ?? version.caption ?? ''}`);
      const keyboard = m.inlineKeyboard?.inline_keyboard ?? [];
      for (const button of keyboard.flat()) texts.push(`#${m.messageId} button: ${JSON.stringify(button)}`);
    }
    for (const answer of world.telegram.callbackAnswers.filter((a) => a.query.from.id === user.id)) {
      texts.push(`callback answer: ${answer.text ?? ''} ${answer.url ?? ''}`);
    }
    // Anything else sent into the chat (documents, photos, reply keyboards, commands), as called.
    for (const call of world.telegram.calls.filter((c) => c.params.chat_id === user.id && !/^(sendMessage|editMessage)/.test(c.method))) {
      texts.push(`${call.method}: ${JSON.stringify(call.params)}`);
    }
    return texts;
  };

  it('every message and button sent to each downline in a whole day names no cost, margin, provider balance, API credential or other downline', async () => {
    world = await startWorld({
      jobs: true,
      env: { DOWNLINES: 'true', RECHECK_FIRST_SECONDS: '1' },
      app: { outboxLimits: { perChatMs: 20 } },
      sandbox: { reseller: { instant: true } },
    });
    const { telegram } = world;
    const providerBalances = new Set<number>();
    const seeBalance = () => providerBalances.add(world.sandbox.reseller.balanceOf(apiId));
    seeBalance();

    // The upline: two levels, auto-approve, payment instructions, an invite link.
    const budi = await buyer(world);
    const say = (user: EmulatedUser, text: string, textIncludes?: string) =>
      telegram.waitForBotMessage(user, { after: user.send(text), ...(textIncludes ? { textIncludes } : {}) });
    await say(budi, '/saldo', '💰');
    await say(budi, '/downline', 'Level');
    await say(budi, '/downline level Bronze Rp 500', 'Level disimpan');
    await say(budi, '/downline level Gold Rp 200', 'Level dibuat');
    await say(budi, '/downline auto nyala', 'nyala');
    await say(budi, `/carabayar ${payInfo}`, 'disimpan');
    const made = await say(budi, '/downline undang', 'Link undangan baru');
    const payload = /\?start=(dl_\d+_[A-Za-z0-9]+)/.exec(made.text ?? '')?.[1] ?? '';
    const margins = { Bronze: 500, Gold: 200 } as const;

    const join = async (
      firstName: string,
      username: string,
      level: Downline['level'],
      deposit: number,
      targets: string[],
      language: 'id' | 'en' = 'id',
    ) => {
      const user = telegram.createUser({ firstName, username, languageCode: language });
      await say(user, `/start ${payload}`, words[language].joined);
      return { user, words: words[language], level, deposit, credited: 0, targets } satisfies Downline;
    };
    const sari = await join('Sari', 'sari_dl', 'Bronze', 50_000, ['081211112222', '081211113333', '081211119999']);
    const tono = await join('Tono', 'tono_dl', 'Bronze', 60_000, ['081233330000', '081233334444', '081233335555']);
    const wati = await join('Wati', 'wati_dl', 'Gold', 70_000, ['085744445555', '085744446666', '085744449999'], 'en');
    const downlines = [sari, tono, wati];
    const gold = (await world.app.db.users.get(budi.id))?.downlineMode?.levels.find((l) => l.name === 'Gold');
    expect(gold).toBeDefined();
    await world.app.services.downlines.changeDownline(budi.id, wati.user.id, { kind: 'level', levelId: gold!.id });
    await telegram.waitForBotMessage(wati.user, { textIncludes: 'Gold' });

    // Deposits: a ticket each, accepted by the upline.
    for (const downline of downlines) {
      const seen = telegram.botMessages(budi).length;
      const ticket = await say(downline.user, `/deposit ${downline.deposit}`, downline.words.ticket);
      downline.credited = Number(downline.words.transfer.exec(ticket.text ?? '')?.[1]?.replace(/\D/g, '') ?? 0);
      const request = await telegram.waitForBotMessage(budi, {
        where: (m) =>
          telegram.botMessages(budi).indexOf(m) >= seen && (m.text ?? '').includes(`Tiket deposit dari ${downline.user.user.first_name}`),
      });
      budi.tap(request, '✅ Terima');
      await telegram.waitForBotMessage(downline.user, { textIncludes: downline.words.credited });
    }

    /** The downline types `line` and confirms; resolves the result once it shows `result`. */
    const buy = async (downline: Downline, line: string, result: 'success' | 'failed' | 'pending' | 'short' | 'unavailable') => {
      const summary = await waitForSummary(world, downline.user, downline.user.send(line));
      downline.user.tap(summary, downline.words.confirm);
      const shown = await telegram.waitForBotMessage(downline.user, {
        after: summary,
        textIncludes: downline.words[result],
        timeoutMs: 10_000,
      });
      seeBalance();
      return shown;
    };
    // Sukses, with the customer receipt.
    const receipt = await buy(sari, `TSEL10.${sari.targets[0]}`, 'success');
    const struk = receipt.buttons.flat().find((label) => label.includes('Struk'));
    if (struk) {
      sari.user.tap(receipt, struk);
      await telegram.waitForBotMessage(sari.user, { after: receipt, where: (m) => m.messageId > receipt.messageId });
    }
    await buy(wati, `ISAT10.${wati.targets[0]}`, 'success');
    // Gagal: refunded.
    await buy(tono, `TSEL10.${tono.targets[0]}`, 'failed');
    // The upline's cost changes between the summary and the tap: asked again at the new level price.
    const repriced = await waitForSummary(world, tono.user, tono.user.send(`TSEL10.${tono.targets[2]}`));
    world.sandbox.reseller.setProduct('TSEL10', { price: newTsel10Cost });
    tono.user.tap(repriced, '✅ Konfirmasi');
    const askedAgain = await telegram.waitForBotMessage(tono.user, { after: repriced, textIncludes: 'Harga berubah sejak ringkasan' });
    expect(askedAgain.text).toContain(`Rp ${grouped(costOf('TSEL10') + margins.Bronze)} → Rp ${grouped(newTsel10Cost + margins.Bronze)}`);
    tono.user.tap(askedAgain, '✅ Konfirmasi');
    await telegram.waitForBotMessage(tono.user, { after: askedAgain, textIncludes: 'Sukses', timeoutMs: 10_000 });
    seeBalance();
    // Pending, then settled by the watcher: a Sukses notice, and a Gagal one with its refund.
    const settleLater = async (downline: Downline, line: string, target: string, status: 'Sukses' | 'Gagal') => {
      await buy(downline, line, 'pending');
      const refId = world.sandbox.reseller.transactions().find((tx) => tx.target === target)!.refId;
      world.sandbox.reseller.settle(refId, status);
      await telegram.waitForBotMessage(downline.user, {
        where: (m) => (m.text ?? '').includes(downline.words.settled[status]) && (m.text ?? '').includes(target),
        timeoutMs: 10_000,
      });
      seeBalance();
    };
    await settleLater(wati, `ISAT10.${wati.targets[2]}`, wati.targets[2]!, 'Sukses');
    await settleLater(sari, `TSEL10.${sari.targets[2]}`, sari.targets[2]!, 'Gagal');
    // Short of the wallet: refused with the shortfall.
    await buy(sari, ['TSEL10', 'TSEL15', 'TSEL20'].map((code) => `${code}.${sari.targets[1]}`).join('\n'), 'short');
    // The upline's provider balance too low: the downline is told the product is unavailable.
    world.sandbox.reseller.setBalance(apiId, 7_321);
    seeBalance();
    await buy(tono, `TSEL10.${tono.targets[1]}`, 'unavailable');
    await buy(wati, `ISAT10.${wati.targets[1]}`, 'unavailable');
    await telegram.waitForBotMessage(budi, { textIncludes: 'Provider menolak pembelian downline Anda' });
    world.sandbox.reseller.setBalance(apiId, 500_000);
    seeBalance();

    // Each downline reads everything they can.
    const csvOf = new Map<number, string>();
    for (const downline of downlines) {
      const { user } = downline;
      await say(user, '/saldo', 'Rp');
      await say(user, '/mutasi');
      await say(user, '/riwayat');
      await say(user, `/cek ${downline.targets[0]}`);
      const prices = await telegram.waitForBotMessage(user, { after: user.send('/harga'), where: (m) => m.buttons.length > 0 });
      const brand = prices.buttons.flat().find((label) => /telkomsel/i.test(label));
      if (brand) {
        user.tap(prices, brand);
        await telegram.waitFor(() => (telegram.message(user, prices.messageId)?.text ?? '').includes(downline.words.page));
      }
      const report = await say(user, '/laporan');
      const today = report.buttons.flat().find((label) => label.includes(downline.words.today));
      if (today) {
        user.tap(report, today);
        await telegram.waitForBotMessage(user, { after: report, textIncludes: downline.words.success });
      }
      // The CSV of /ekspor, whose contents are scanned too.
      const exportMenu = await say(user, '/ekspor', downline.words.exportMenu);
      const sent = telegram.botMessages(user).length;
      user.tap(exportMenu, downline.words.today);
      await telegram.waitFor(() => telegram.botMessages(user).length > sent);
      const file = telegram.botMessages(user).at(-1)!;
      const fileId = file.message.document?.file_id;
      expect(fileId, `${user.user.first_name}'s export`).toBeDefined();
      const response = await fetch(`${telegram.url}/playground/file/${encodeURIComponent(fileId!)}`);
      csvOf.set(user.id, await response.text());
    }
    await world.idle();

    // The story happened as told (else the scan below proves little).
    const balanceOf = (d: Downline) => world.app.db.ledger.balance(d.user.id);
    expect(await balanceOf(sari)).toBe(sari.credited - costOf('TSEL10') - margins.Bronze);
    expect(await balanceOf(tono)).toBe(tono.credited - newTsel10Cost - margins.Bronze);
    expect(await balanceOf(wati)).toBe(wati.credited - 2 * (costOf('ISAT10') + margins.Gold));
    const walletBalances = new Map<number, number>();
    for (const d of downlines) walletBalances.set(d.user.id, await balanceOf(d));

    // What only the upline may know.
    const uplineSecrets: Array<[string, RegExp]> = [
      ['the cost of TSEL10', amountPattern(costOf('TSEL10'))],
      ['the cost of ISAT10', amountPattern(costOf('ISAT10'))],
      ['the new cost of TSEL10', amountPattern(newTsel10Cost)],
      // A downline's own report shows their own margin (their /jual over their price): none here.
      ['a margin earned', /margin[^\n]*?[1-9]/i],
      ...[...providerBalances].map((b): [string, RegExp] => [`the provider balance Rp ${grouped(b)}`, amountPattern(b)]),
      ['the API ID', new RegExp(apiId, 'i')],
      ['the API key', new RegExp(apiKey, 'i')],
      ["the provider's own refusal", /Saldo tidak mencukupi/i],
    ];
    const found: string[] = [];
    for (const viewer of downlines) {
      const margin = margins[viewer.level];
      const secrets: Array<[string, RegExp]> = [...uplineSecrets, [`the upline's margin Rp ${margin}`, amountPattern(margin)]];
      for (const other of downlines.filter((d) => d !== viewer)) {
        const name = other.user.user.first_name;
        secrets.push(
          [`${name}'s name`, new RegExp(`\\b${name}\\b`)],
          [`${name}'s username`, new RegExp(other.user.user.username!, 'i')],
          [`${name}'s id`, idPattern(other.user.id)],
          [`${name}'s deposit`, amountPattern(other.credited)],
          [`${name}'s wallet`, amountPattern(walletBalances.get(other.user.id)!)],
          ...other.targets.map((target): [string, RegExp] => [`${name}'s target`, new RegExp(target)]),
        );
      }
      const texts = [...everythingSentTo(viewer.user), `export: ${csvOf.get(viewer.user.id) ?? ''}`];
      if (process.env.DUMP_CHATS) console.log(texts.join('\n'));
      expect(texts.length, `messages to ${viewer.user.user.first_name}`).toBeGreaterThan(15);
      for (const [what, pattern] of secrets) {
        for (const text of texts.filter((t) => pattern.test(t))) found.push(`${viewer.user.user.first_name} was sent ${what}: ${text}`);
      }
    }
    expect(found).toEqual([]);

    // The scan sees what is there: the upline's own chat shows his provider balance, each
    // downline's name, deposit and the margin of their level.
    const uplineChat = everythingSentTo(budi).join('\n');
    expect(uplineChat).toMatch(amountPattern(1_000_000));
    for (const d of downlines) {
      expect(uplineChat).toMatch(new RegExp(`\\b${d.user.user.first_name}\\b`));
      expect(uplineChat).toMatch(amountPattern(d.credited));
    }
    expect(uplineChat).toMatch(amountPattern(margins.Bronze));
    expect(uplineChat).toMatch(amountPattern(margins.Gold));
  });
});
