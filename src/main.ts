/**
 * `npm start`: reads the environment (and `.env` if present), opens the store, starts the bot
 * with long polling through @grammyjs/runner, and stops gracefully on SIGINT/SIGTERM.
 */
import { run, type RunnerHandle } from '@grammyjs/runner';
import { createConfig } from './config.ts';
import { allowedUpdates, createApp } from './app.ts';
import { restoreAdvice } from './store/backup.ts';
import { StoreCorruptError, StoreMissingError } from './store/errors.ts';
import { publishCommands } from './bot/commands.ts';
import { BotTokenRejectedError, initBotWithRetry } from './telegram-start.ts';
import { startHttpServer, type HttpServer } from './server/http.ts';
import { logPollingErrors } from './output-guard.ts';
import { startCommand } from './ops/cli.ts';

// Nothing this process prints (our logs, a library's console.error, a crash trace) may contain a secret.
const config = startCommand(createConfig);

let app;
try {
  app = await createApp(config);
} catch (error) {
  const advice =
    error instanceof StoreCorruptError || error instanceof StoreMissingError ? ` ${await restoreAdvice(config.backups.dir)}` : '';
  console.error(`kiosbot cannot start: ${error instanceof Error ? error.message : String(error)}${advice}`);
  process.exit(1);
}
const { bot, logger, db } = app;
const started = app;

// SIGINT/SIGTERM are ours from here to the end, so no instant is left where a signal kills the
// process outright: during start-up a signal ends the start (after the step running now, with the
// store closed), once updates are being received it stops the bot gracefully (stop() below).
const waiting = new AbortController();
/** Set once updates are being received: the graceful stop. */
const receiving: { stop?: (signal: NodeJS.Signals) => void } = {};
const onSignal = (signal: NodeJS.Signals) => {
  // A second signal while stopping ends the process at once, as a second Ctrl+C should.
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  if (receiving.stop) receiving.stop(signal);
  else waiting.abort(signal);
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
/** Ends the start-up gracefully if a signal came during the step that just finished. */
async function exitIfStopped(): Promise<void> {
  if (!waiting.signal.aborted) return;
  await started.close();
  logger.info('stopped', { signal: String(waiting.signal.reason) });
  process.exit(0);
}
try {
  await initBotWithRetry(bot, { apiRoot: config.telegramApiRoot, ...config.telegramStart, logger, signal: waiting.signal });
} catch (error) {
  if (!waiting.signal.aborted) logger.error(error instanceof BotTokenRejectedError ? error.message : 'cannot start', { error });
  await db.close();
  process.exit(waiting.signal.aborted ? 0 : 1);
}
// Before any new update is received, handle those a crash interrupted.
try {
  await started.replayInbox();
} catch (error) {
  logger.error('cannot replay the stored updates', { error });
  await started.close();
  process.exit(1);
}
await exitIfStopped();
logger.info('bot ready', { username: bot.botInfo.username });
void publishCommands(bot.api, started.deps.i18n, logger, config.defaultLocale, config.adminIds, { downlines: config.downlines });

let runner: RunnerHandle | undefined;
let server: HttpServer;
try {
  if (config.webhook) {
    // Webhook mode: Telegram posts updates to WEBHOOK_URL, which must reach PORT on this machine.
    const path = new URL(config.webhook.url).pathname;
    server = await startHttpServer({
      port: config.port,
      host: config.healthHost,
      healthToken: config.healthToken,
      logger,
      db: started.db,
      webhook: {
        bot,
        handle: started.updates.handle,
        path,
        secret: config.webhook.secret,
        claims: started.updateClaims,
        unstored: started.unstored,
      },
    });
    await bot.api.setWebhook(config.webhook.url, { secret_token: config.webhook.secret, allowed_updates: [...allowedUpdates] });
    logger.info('webhook mode', {
      port: config.port,
      host: server.host,
      path,
      ...(server.host === '127.0.0.1' || server.host === '::1'
        ? {
            hint: 'listening on loopback only: a reverse proxy on this machine must forward WEBHOOK_URL to PORT (or set HEALTH_HOST=0.0.0.0)',
          }
        : {}),
    });
  } else {
    server = await startHttpServer({ port: config.port, host: config.healthHost, healthToken: config.healthToken, logger, db: started.db });
    await bot.api.deleteWebhook();
    // The runner prints polling errors raw (their URL holds the token): they go through the logger instead.
    logPollingErrors(bot.api, logger);
    runner = run(started.updates.runnerBot, { runner: { fetch: { allowed_updates: [...allowedUpdates] }, silent: true } });
    logger.info('long polling', { healthUrl: `${server.url}/health` });
  }
} catch (error) {
  logger.error(`cannot start receiving updates (is PORT ${config.port} free? is WEBHOOK_URL reachable?)`, { error });
  await started.close();
  process.exit(1);
}

started.startJobs();

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info('stopping', { signal });
  await server.close();
  if (runner?.isRunning()) await runner.stop();
  // Let the updates being handled finish (they may be writing conversation state or a purchase).
  for (let waited = 0; runner && runner.size() > 0 && waited < 10_000; waited += 50)
    await new Promise((resolve) => setTimeout(resolve, 50));
  await started.close();
  logger.info('stopped');
  process.exit(0);
}
receiving.stop = (signal) => void stop(signal);
if (waiting.signal.aborted) receiving.stop(waiting.signal.reason as NodeJS.Signals);
