/**
 * A deploy must never replay a user's saved conversation steps into a flow whose steps changed:
 * the conversations plugin replays each flow from the top against its stored log of waits,
 * `external` calls and Bot API calls, and only `conversationsVersion` makes it drop the logs an
 * older version wrote. This test drives every flow through the real bot, reads the state the
 * storage adapter stored after each update, and compares the shape of those logs (operation kinds,
 * result and argument skeletons; no data) with the shapes recorded for the current version in
 * conversation-fingerprints.json.
 *
 * `UPDATE_FINGERPRINTS=1` (`npm run fingerprint:conversations`) records them again; it refuses
 * while a recorded path changed under an unchanged version, and records a path not recorded yet
 * (new coverage, not a change of its flow) without a bump.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ConversationData, VersionedState } from '@grammyjs/conversations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { buyer, tapThrough } from '../helpers/buy.ts';
import { ChatDriver, answerOrder, freeFire, looseFloodLimit, sampleCataloguePath, shopper } from '../helpers/gameshop.ts';
import { seedConnectedUser } from '../helpers/seed-transactions.ts';
import { stepShapes } from '../helpers/conversation-shape.ts';
import { changedPaths, unrecordedPaths } from '../helpers/conversation-fingerprints.ts';
import { conversationIds } from '../../src/bot/conversations/ids.ts';
import { conversationsVersion } from '../../src/bot/conversation-storage.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import { marketplaceDemoAccounts } from '../../tools/sandbox/marketplace.ts';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';

type FlowName = (typeof conversationIds)[keyof typeof conversationIds];

interface Fingerprints {
  note?: string;
  version: number;
  /** Per flow, the shape of the stored state after each update of its scripted paths. */
  flows: Partial<Record<FlowName, string[]>>;
}

const fingerprintFile = path.join(import.meta.dirname, 'conversation-fingerprints.json');
const rerecord = 'npm run fingerprint:conversations';
const note =
  `Written by \`${rerecord}\` (test/bot/conversation-versions.test.ts): the shape of each flow's stored state ` +
  `after each step of its scripted paths, for this conversationsVersion. Not edited by hand.`;

/**
 * A chat whose every step (a message sent, a button tapped) is followed by reading the
 * conversation state stored for it once the update is completely handled.
 */
class RecordedChat extends ChatDriver {
  private readonly steps: Array<{ kind: 'message' | 'tap'; state: VersionedState<ConversationData> | undefined }> = [];

  constructor(
    world: TestWorld,
    user: EmulatedUser,
    readonly path: string,
  ) {
    super(world, user);
  }

  override async send(text: string, expect?: string | RegExp): Promise<EmulatedMessage> {
    return this.record('message', super.send(text, expect));
  }

  override async tap(message: EmulatedMessage, part: string, expect?: string | RegExp): Promise<EmulatedMessage> {
    return this.record('tap', super.tap(message, part, expect));
  }

  /** Taps a button of a message the next step edits in place (the buy picker). */
  async tapEdited(message: EmulatedMessage, prefix: string, includes: string): Promise<void> {
    await this.record('tap', tapThrough(this.world, this.user, message, prefix, includes));
  }

  /** Sends purchase lines and confirms their summary; resolves with the result. */
  async buyConfirmed(lines: string): Promise<EmulatedMessage> {
    const summary = await this.send(lines, 'Ringkasan pembelian');
    return this.tap(summary, 'Konfirmasi', 'Sukses');
  }

  /** Opens /pin with a PIN set and taps `button` of its menu, up to the current-PIN question. */
  async openPinMenu(button: string): Promise<void> {
    const menu = await this.send('/pin', 'PIN transaksi sedang aktif');
    await this.tap(menu, button, 'PIN Anda yang sekarang');
  }

  /** The path's name, then per step what the user did and the shape of the state stored after it. */
  shapes(): string[] {
    const shapes = stepShapes(this.steps.map((step) => step.state));
    return [`path ${this.path}`, ...this.steps.map((step, i) => `${step.kind}: ${shapes[i]}`)];
  }

  private async record<T>(kind: 'message' | 'tap', step: Promise<T>): Promise<T> {
    const result = await step;
    await this.world.idle();
    const key = `${this.user.id}:${this.user.id}`;
    const state = (await this.world.app.db.conversations.read(key)) as VersionedState<ConversationData> | undefined;
    this.steps.push({ kind, state });
    return result;
  }
}

const knownPin = '482915';

/** A new user the bot knows, with `knownPin` set. */
async function pinned(world: TestWorld, firstName: string): Promise<EmulatedUser> {
  const user = world.telegram.createUser({ firstName, languageCode: 'id' });
  await world.app.db.users.upsert({ id: user.id, firstName });
  await world.app.services.pin.set(user.id, knownPin);
  return user;
}

/** One scripted path per entry; each starts in a chat of a new user. */
const flows: Record<FlowName, Array<(world: TestWorld) => Promise<RecordedChat>>> = {
  connect: [
    async (world) => {
      const chat = new RecordedChat(world, world.telegram.createUser({ firstName: 'Connect', languageCode: 'id' }), 'accepted');
      const picker = await chat.send('/connect');
      await chat.tap(picker, 'Top-up reseller', 'API ID');
      await chat.send(resellerDemoAccounts.main.apiId, 'API key');
      await chat.send(resellerDemoAccounts.main.apiKey, '✅');
      return chat;
    },
    async (world) => {
      const chat = new RecordedChat(world, world.telegram.createUser({ firstName: 'Refused', languageCode: 'id' }), 'refused, retried');
      const picker = await chat.send('/connect');
      await chat.tap(picker, 'Top-up reseller', 'API ID');
      await chat.send(resellerDemoAccounts.main.apiId, 'API key');
      const refused = await chat.send('not-the-right-key-123', '❌');
      await chat.tap(refused, 'Coba lagi', 'API ID');
      await chat.send('/batal');
      return chat;
    },
    async (world) => {
      const chat = new RecordedChat(world, world.telegram.createUser({ firstName: 'Market', languageCode: 'id' }), 'marketplace');
      const picker = await chat.send('/connect');
      await chat.tap(picker, 'Marketplace', 'API key');
      await chat.send(marketplaceDemoAccounts.main.apiKey, '✅');
      return chat;
    },
  ],
  buy: [
    async (world) => {
      const chat = new RecordedChat(world, await buyer(world, 'Quick'), 'quick-buy');
      await chat.buyConfirmed('TSEL10.081234567890');
      return chat;
    },
    async (world) => {
      const chat = new RecordedChat(world, await buyer(world, 'Picker'), 'picker');
      const picker = await chat.send('/beli', 'kategori');
      await chat.tapEdited(picker, '📱 Pulsa', 'Telkomsel');
      await chat.tapEdited(picker, 'Telkomsel', 'Rp 10.450');
      await chat.tapEdited(picker, 'Telkomsel 10.000', 'nomor HP');
      const summary = await chat.send('0812 3456 7890', 'Ringkasan pembelian');
      await chat.tap(summary, 'Konfirmasi', 'Sukses');
      return chat;
    },
    async (world) => {
      const chat = new RecordedChat(world, await buyer(world, 'Bulk'), 'bulk quick-buy');
      await chat.buyConfirmed('TSEL10.081234567890\nXL10.081398765432');
      return chat;
    },
    async (world) => {
      const chat = new RecordedChat(world, await buyer(world, 'Repeat'), 'repeat question');
      await chat.buyConfirmed('TSEL10.081234567890');
      const second = await chat.send('TSEL10.081234567890', 'Ringkasan pembelian');
      const question = await chat.tap(second, 'Konfirmasi', 'baru saja');
      await chat.tap(question, 'Ya, beli lagi', 'Sukses');
      return chat;
    },
    async (world) => {
      const user = await buyer(world, 'Pinned');
      await world.app.services.pin.set(user.id, '4829');
      const chat = new RecordedChat(world, user, 'with a PIN');
      const summary = await chat.send('TSEL10.081234567890', 'Ringkasan pembelian');
      await chat.tap(summary, 'Konfirmasi', 'PIN');
      await chat.send('4829', 'Sukses');
      return chat;
    },
    async (world) => {
      const chat = new RecordedChat(world, await buyer(world, 'Cancel'), 'cancelled by /batal at the summary');
      await chat.send('/beli TSEL10 081234567890', 'Ringkasan pembelian');
      await chat.send('/batal', 'Dibatalkan');
      return chat;
    },
    // Last: it raises XL10 for the rest of the run.
    async (world) => {
      const chat = new RecordedChat(world, await buyer(world, 'Raised'), 'price raised before Confirm');
      const summary = await chat.send('XL10.081398765432', 'Ringkasan pembelian');
      world.sandbox.reseller.setProduct('XL10', { price: 99_000 });
      const again = await chat.tap(summary, 'Konfirmasi', 'Harga berubah');
      await chat.tap(again, 'Konfirmasi', 'Sukses');
      return chat;
    },
  ],
  pin: [
    async (world) => {
      const chat = new RecordedChat(world, world.telegram.createUser({ firstName: 'Pin', languageCode: 'id' }), 'set');
      await chat.send('/pin', 'belum punya PIN');
      await chat.send('482915', 'sekali lagi');
      await chat.send('482915', 'PIN disimpan');
      return chat;
    },
    async (world) => {
      const chat = new RecordedChat(world, await pinned(world, 'Change'), 'change');
      await chat.openPinMenu('Ganti PIN');
      await chat.send(knownPin, 'PIN baru');
      await chat.send('7305', 'sekali lagi');
      await chat.send('7305', 'PIN diganti');
      return chat;
    },
    async (world) => {
      const chat = new RecordedChat(world, await pinned(world, 'Remove'), 'remove');
      await chat.openPinMenu('Hapus PIN');
      await chat.send(knownPin, 'PIN dihapus');
      return chat;
    },
    async (world) => {
      const chat = new RecordedChat(world, await pinned(world, 'Wrong'), 'wrong current PIN');
      await chat.openPinMenu('Hapus PIN');
      await chat.send('111222', 'PIN salah');
      await chat.send(knownPin, 'PIN dihapus');
      return chat;
    },
  ],
  order: [
    async (world) => {
      const chat = new RecordedChat(world, await shopper(world, 'Order'), 'catalogue, QRIS');
      const first = await chat.send('/pesan', 'Mau top up game apa');
      const summary = await answerOrder(chat, first, { ...freeFire, promo: 'HEMAT10' });
      await chat.tap(summary, 'Pesan sekarang', 'Pesanan dibuat');
      return chat;
    },
    async (world) => {
      const chat = new RecordedChat(world, await shopper(world, 'Promo'), 'refused promo');
      const first = await chat.send('/pesan', 'Mau top up game apa');
      const summary = await answerOrder(chat, first, { ...freeFire, promo: 'NGAWUR' });
      const refused = await chat.tap(summary, 'Pesan sekarang', 'tidak berlaku');
      await chat.tap(refused, 'tanpa promo', 'Pesanan dibuat');
      return chat;
    },
    // The catalogue is loaded once at start: this path runs in a world of its own without it.
    async () => {
      const bare = await startWorld({ sandbox: { reseller: { instant: true } }, app: { floodLimit: looseFloodLimit } });
      try {
        const chat = new RecordedChat(bare, await shopper(bare, 'Ids'), 'no catalogue, ids typed');
        const first = await chat.send('/pesan', 'Mau top up game apa');
        const ids = await chat.tap(first, 'Free Fire', 'ID produk');
        const summary = await answerOrder(chat, ids, {
          ...freeFire,
          game: undefined,
          catalogue: false,
          product: '201',
          method: '1',
          server: 'skip',
        });
        await chat.tap(summary, 'Pesan sekarang', 'Pesanan dibuat');
        return chat;
      } finally {
        await bare.stop();
      }
    },
  ],
  shop: [
    async (world) => {
      const chat = new RecordedChat(world, await seedConnectedUser(world, 'Shop'), 'new profile');
      await chat.send('/toko', 'nama toko');
      await chat.send('Konter Budi', 'alamat');
      const footer = await chat.send('Jl. Melati 5, Bandung', 'catatan kaki');
      const target = await chat.tap(footer, 'Lewati', 'nomor tujuan');
      const menu = await chat.tap(target, 'Disamarkan', 'Profil toko');
      await chat.tap(menu, 'Selesai', 'Selesai');
      return chat;
    },
    async (world) => {
      const user = await seedConnectedUser(world, 'Profile');
      await world.app.db.users.upsert({ id: user.id, firstName: 'Profile' });
      await world.app.db.users.update(user.id, { shop: { name: 'Konter Ani', address: 'Jl. Lama 1', target: 'masked' } });
      const chat = new RecordedChat(world, user, 'edit one field');
      const menu = await chat.send('/toko', 'Profil toko');
      await chat.tap(menu, 'Nama', 'nama toko');
      const renamed = await chat.send('Toko Ani', 'disimpan');
      await chat.tap(renamed, 'Selesai', 'Selesai');
      return chat;
    },
  ],
  sell: [
    async (world) => {
      const chat = new RecordedChat(world, await buyer(world, 'Sell'), 'default markup');
      const screen = await chat.send('/jual', 'Belum ada aturan');
      await chat.tap(screen, 'Markup default', 'markup default');
      await chat.send('lima persen', 'bukan markup');
      const step = await chat.send('2,5%', 'dibulatkan');
      await chat.tap(step, 'Rp 500', 'disimpan');
      return chat;
    },
    async (world) => {
      const chat = new RecordedChat(world, await buyer(world, 'Brand'), 'per-brand rule');
      const screen = await chat.send('/jual', 'Belum ada aturan');
      await chat.tap(screen, 'Per brand', 'per brand');
      await chat.send('telkomsel 1000', 'disimpan');
      return chat;
    },
  ],
};

/** Drives every path of every flow, one after another, and returns each flow's shapes. */
async function driveFlows(world: TestWorld): Promise<Record<FlowName, string[]>> {
  const shapes = {} as Record<FlowName, string[]>;
  for (const [name, paths] of Object.entries(flows) as Array<[FlowName, (typeof flows)[FlowName]]>) {
    shapes[name] = [];
    for (const drive of paths) shapes[name].push(...(await drive(world)).shapes());
  }
  return shapes;
}

function readFingerprints(): Fingerprints | undefined {
  try {
    return JSON.parse(readFileSync(fingerprintFile, 'utf8')) as Fingerprints;
  } catch {
    return undefined;
  }
}

describe('conversation versions', () => {
  let world: TestWorld;
  let shapes: Record<FlowName, string[]>;
  beforeAll(async () => {
    world = await startWorld({
      sandbox: { reseller: { instant: true } },
      env: { GAMESHOP_CATALOGUE: sampleCataloguePath },
      app: { floodLimit: looseFloodLimit },
    });
    shapes = await driveFlows(world);
  });
  afterAll(async () => {
    await world.stop();
  });

  it('drives every conversation, and each path enters its own flow', () => {
    expect(Object.keys(flows).sort()).toEqual(Object.values(conversationIds).sort());
    for (const [name, steps] of Object.entries(shapes)) {
      expect(
        steps.some((step) => step.includes(`: ${name} (`)),
        `no state of "${name}" was stored on its paths`,
      ).toBe(true);
    }
  });

  it('records the same steps for the current conversationsVersion, or the version was bumped', () => {
    const recorded = readFingerprints();
    const changed = recorded ? changedPaths(recorded.flows, shapes) : [];
    const bump = `bump conversationsVersion in src/bot/conversation-storage.ts (now ${conversationsVersion}) and run \`${rerecord}\` to record the new fingerprints`;

    if (process.env.UPDATE_FINGERPRINTS) {
      if (recorded?.version === conversationsVersion && changed.length > 0) {
        throw new Error(`${changed.join('; ')}: ${bump}. Not recorded: the version was not bumped.`);
      }
      const file: Fingerprints = { note, version: conversationsVersion, flows: shapes };
      writeFileSync(fingerprintFile, `${JSON.stringify(file, null, 2)}\n`);
      return;
    }

    if (!recorded) throw new Error(`${path.basename(fingerprintFile)} is missing or unreadable: run \`${rerecord}\` and commit it.`);
    if (recorded.version !== conversationsVersion) {
      throw new Error(
        `conversationsVersion is ${conversationsVersion} but the fingerprints were recorded for ${recorded.version}: ` +
          `run \`${rerecord}\` to record them for ${conversationsVersion}, and commit ${path.basename(fingerprintFile)}.`,
      );
    }
    const missing = unrecordedPaths(recorded.flows, shapes);
    if (changed.length > 0) throw new Error(`${changed.join('; ')}: ${bump}.`);
    if (missing.length > 0) throw new Error(`no fingerprint recorded for ${missing.join(', ')}: run \`${rerecord}\` and commit it.`);
  });
});

describe('recording fingerprints under an unchanged version', () => {
  const recorded = { pin: ['path set', 'message: pin () = wait | pending 1', 'message: ended'] };

  it('takes a path with no fingerprint yet as new coverage, not as a change of its flow', () => {
    const now = { ...recorded, pin: [...recorded.pin, 'path remove', 'message: pin () = wait external | pending 1'] };
    expect(changedPaths(recorded, now)).toEqual([]);
    expect(unrecordedPaths(recorded, now)).toEqual(['pin/remove']);
  });

  it('takes a recorded path whose steps changed as a change that needs a bump, whatever new paths come with it', () => {
    const now = { pin: ['path set', 'message: pin () = wait external | pending 1', 'message: ended', 'path remove', 'message: ended'] };
    expect(changedPaths(recorded, now)).toEqual([
      'flow "pin" changed its steps on path "set" (first difference at step 1: recorded "message: pin () = wait | pending 1", now "message: pin () = wait external | pending 1")',
    ]);
  });

  it('takes a flow with no fingerprint at all as unrecorded, every path of it', () => {
    const now = { ...recorded, sell: ['path rule', 'message: ended'] };
    expect(changedPaths(recorded, now)).toEqual([]);
    expect(unrecordedPaths(recorded, now)).toEqual(['sell/rule']);
  });
});
