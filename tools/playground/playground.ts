/**
 * The playground as `npm run playground` and `npm run demo` start it: the Bot API emulator with a
 * first user ready (so the page can say /start at once), and inline mode on (the bot answers
 * `@bot query`, as BotFather's /setinline allows).
 */
import { startBotApi, type BotApiEmulator, type BotApiOptions, type EmulatedUser } from './bot-api.ts';
import type { CreateUserOptions } from './types.ts';

/** The user the page starts as: Indonesian, like most of the bot's users. */
export const firstPlaygroundUser = { firstName: 'Budi', username: 'budi', languageCode: 'id' } as const;

/** Starts the emulator with its first user (`firstUser.note`: who they are, shown beside the name). */
export async function startPlayground(
  options: BotApiOptions = {},
  firstUser: Pick<CreateUserOptions, 'note'> = {},
): Promise<{ api: BotApiEmulator; firstUser: EmulatedUser }> {
  const api = await startBotApi({ inlineMode: true, ...options });
  const user = api.createUser({ ...firstPlaygroundUser, ...firstUser });
  return { api, firstUser: user };
}
