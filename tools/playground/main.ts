/**
 * `npm run playground`: runs the Telegram Bot API emulator with its browser chat page, so the bot
 * can be tried locally without Telegram. Start the bot against it with TELEGRAM_API_ROOT pointing
 * here and the same BOT_TOKEN (or use `npm run demo`, which starts everything).
 *
 * Reads `.env` like the bot. PLAYGROUND_PORT (default 8081), PLAYGROUND_HOST (default 127.0.0.1),
 * PLAYGROUND_TOKEN, PLAYGROUND_BOT_USERNAME, PLAYGROUND_ENFORCE_LIMITS=1 (answer 429 like Telegram).
 */
import { listenOrExplain, loadDotEnv, portFromEnv, runTool } from '../cli.ts';
import { startPlayground } from './playground.ts';
import { defaultPlaygroundToken } from './world.ts';

runTool(async () => {
  loadDotEnv();
  const port = portFromEnv(process.env, 'PLAYGROUND_PORT', 8081);
  const token = process.env.PLAYGROUND_TOKEN?.trim() || defaultPlaygroundToken;
  const host = process.env.PLAYGROUND_HOST?.trim() || '127.0.0.1';

  const { api, firstUser } = await listenOrExplain('the playground', 'PLAYGROUND_PORT', { host, port }, () =>
    startPlayground({
      port,
      host,
      token,
      botUsername: process.env.PLAYGROUND_BOT_USERNAME?.trim() || undefined,
      enforceLimits: process.env.PLAYGROUND_ENFORCE_LIMITS === '1',
    }),
  );

  console.log(`kiosbot playground (a local Telegram Bot API) is listening.

  Chat page:  ${api.url}/   (you are ${firstUser.user.first_name}, id ${firstUser.id}; add users there)
  Bot:        @${api.botInfo.username} (id ${api.botInfo.id})

Start the bot against it in another terminal (with the rest of your .env):
  TELEGRAM_API_ROOT=${api.apiRoot} BOT_TOKEN=${api.token} npm start

Messages live in memory only. Ctrl+C stops.`);

  const stop = () => {
    void api.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
});
