/**
 * `npx tsx tools/playground/main.ts`: runs the Telegram Bot API emulator with its browser chat page,
 * so the bot can be tried locally without Telegram. Start the bot against it with
 * TELEGRAM_API_ROOT pointing here and the same BOT_TOKEN.
 *
 * PLAYGROUND_PORT (default 8081), PLAYGROUND_HOST (default 127.0.0.1), PLAYGROUND_TOKEN,
 * PLAYGROUND_BOT_USERNAME, PLAYGROUND_ENFORCE_LIMITS=1 (answer 429 like Telegram).
 */
import { startBotApi } from './bot-api.ts';
import { defaultPlaygroundToken } from './world.ts';

const port = Number(process.env.PLAYGROUND_PORT ?? 8081);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PLAYGROUND_PORT must be a port number (0-65535), got "${process.env.PLAYGROUND_PORT}".`);
  process.exit(1);
}
const token = process.env.PLAYGROUND_TOKEN?.trim() || defaultPlaygroundToken;
const host = process.env.PLAYGROUND_HOST?.trim() || '127.0.0.1';

let api: Awaited<ReturnType<typeof startBotApi>>;
try {
  api = await startBotApi({
    port,
    host,
    token,
    botUsername: process.env.PLAYGROUND_BOT_USERNAME?.trim() || undefined,
    enforceLimits: process.env.PLAYGROUND_ENFORCE_LIMITS === '1',
  });
} catch (error) {
  const reason = error instanceof Error ? error.message : String(error);
  console.error(`The playground could not start: ${reason}. If the port is taken, choose another with PLAYGROUND_PORT.`);
  process.exit(1);
}

console.log(`kiosbot playground (a local Telegram Bot API) is listening.

  Chat page:  ${api.url}/
  Bot:        @${api.botInfo.username} (id ${api.botInfo.id})

Start the bot against it in another terminal (with the rest of your .env):
  TELEGRAM_API_ROOT=${api.apiRoot} BOT_TOKEN=${api.token} npm start

Messages live in memory only. Ctrl+C stops.`);

const stop = () => {
  void api.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
