/**
 * What the /broadcast tests share: a world with many known users (some of whom blocked the bot),
 * the admin starting a broadcast of a photo with a caption and a URL button, and counting copies.
 * With `time` (test/helpers/virtual-time.ts) everything that needs the clock is driven through it.
 */
import { expect } from 'vitest';
import { startWorld, type TestWorld, type TestWorldOptions } from './app.ts';
import type { VirtualTime } from './virtual-time.ts';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';

export const adminId = 990001;
export const caption = 'Harga pulsa naik mulai besok';
export const button = { text: 'Lihat harga', url: 'https://example.com/harga' };

export interface Audience {
  admin: EmulatedUser;
  users: EmulatedUser[];
  /** Users who blocked the bot (Telegram answers 403), every 20th: 5%. */
  blocked: Set<number>;
}

export interface UsersOptions {
  /** Virtual time (started before the world); without it the world runs in real time. */
  time?: VirtualTime;
  env?: Record<string, string>;
  telegram?: TestWorldOptions['telegram'];
  app?: TestWorldOptions['app'];
}

/** Awaits `promise`, moving the virtual clock if there is one. */
export const awaitIn = <T>(time: VirtualTime | undefined, promise: Promise<T>): Promise<T> => (time ? time.until(promise) : promise);

/** The world with `count` known users (stored as after their /start); every 20th of them blocked the bot. */
export async function worldWithUsers(count: number, options: UsersOptions): Promise<[TestWorld, Audience]> {
  const { time } = options;
  const world = await awaitIn(
    time,
    startWorld({
      jobs: true,
      env: { ADMIN_IDS: String(adminId), ...options.env },
      telegram: { ...options.telegram, ...(time ? { now: () => Date.now() } : {}) },
      app: {
        // The admin taps through the audience choices quickly.
        floodLimit: { updates: 100, windowMs: 3000 },
        ...(time ? { storeWriteFile: time.writeFile } : {}),
        ...options.app,
      },
    }),
  );
  time?.watch(world.telegram);
  const admin = world.telegram.createUser({ firstName: 'Admin', languageCode: 'id', id: adminId });
  const users = Array.from({ length: count }, (_, i) => world.telegram.createUser({ firstName: `Pengguna ${i}`, languageCode: 'id' }));
  await awaitIn(
    time,
    Promise.all([admin, ...users].map((user) => world.app.db.users.upsert({ id: user.id, firstName: user.user.first_name, locale: 'id' }))),
  );
  const blocked = new Set<number>();
  users.forEach((user, i) => {
    if (i % 20 !== 7) return;
    // Blocked without the bot being told (no my_chat_member seen): only a send finds out.
    world.telegram.injectError({ chatId: user.id, errorCode: 403, description: 'Forbidden: bot was blocked by the user', times: Infinity });
    blocked.add(user.id);
  });
  await awaitIn(time, world.idle());
  return [world, { admin, users, blocked }];
}

/** The admin has a photo with a caption and a URL button in their chat, replies to it with /broadcast and picks everyone. */
export async function startPhotoBroadcast(world: TestWorld, admin: EmulatedUser, time?: VirtualTime): Promise<EmulatedMessage> {
  const photo = await awaitIn(
    time,
    world.app.bot.api.sendPhoto(adminId, 'https://example.com/promo.jpg', { caption, reply_markup: { inline_keyboard: [[button]] } }),
  );
  const picker = await awaitIn(
    time,
    world.telegram.waitForBotMessage(admin, {
      after: admin.send('/broadcast', { replyTo: photo.message_id }),
      textIncludes: 'Kirim ke siapa',
    }),
  );
  const preview = world.telegram.botMessages(admin).find((m) => m.messageId > photo.message_id && m.message.caption === caption);
  expect(preview?.inlineKeyboard?.inline_keyboard[0]?.[0], JSON.stringify(world.telegram.botMessages(admin))).toMatchObject(button);
  admin.tap(picker, 'Semua pengguna aktif');
  await awaitIn(
    time,
    world.telegram.waitFor(() => picker.text?.includes('pengguna aktif (Semua pengguna aktif)')),
  );
  return picker;
}

/** Copies of the broadcast the user received (for the admin: besides the preview). */
export const copiesOf = (world: TestWorld, user: EmulatedUser): number =>
  world.telegram
    .botMessages(user)
    .filter(
      (m) => m.method === 'copyMessage' && m.message.caption === caption && m.inlineKeyboard?.inline_keyboard[0]?.[0]?.text === button.text,
    ).length - (user.id === adminId ? 1 : 0);

export const formatted = (count: number): string => new Intl.NumberFormat('id').format(count);
