import type { BotConfig } from 'grammy';
import type { Config } from './config.ts';
import { createLogger, type Logger } from './logger.ts';
import { openStore, type Store } from './store/store.ts';
import { createVault } from './store/vault.ts';
import { createProviders, type Providers } from './providers/factory.ts';
import { createServices, type Services } from './services/services.ts';
import { createBot } from './bot/index.ts';
import type { BotContext, BotDeps } from './bot/context.ts';

export interface App {
  bot: ReturnType<typeof createBot>;
  deps: BotDeps;
  store: Store;
  services: Services;
  providers: Providers;
  logger: Logger;
  /** Flushes and closes the store. */
  close(): Promise<void>;
}

export interface AppOptions {
  logger?: Logger;
  now?: () => Date;
  botConfig?: BotConfig<BotContext>;
  /** Milliseconds a conversation waits for the next answer. Default 15 minutes. */
  conversationTimeoutMs?: number;
}

/**
 * The composition root shared by `main.ts` and the end-to-end tests: config → store → providers
 * → services → bot. Nothing here starts polling; the caller decides how updates arrive.
 */
export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const logger = options.logger ?? createLogger({ level: config.logLevel, secrets: [config.botToken, config.encryptionKey.toString('base64'), config.encryptionKey.toString('hex')] });
  const now = options.now ?? (() => new Date());
  const store = await openStore({ dataDir: config.dataDir, vault: createVault({ key: config.encryptionKey }), now });
  if (store.migratedFrom !== undefined) logger.info('data file upgraded', { from: store.migratedFrom });
  const providers = createProviders(config.providers);
  const services = createServices({ store, providers, logger, now });
  const deps: BotDeps = {
    settings: {
      botToken: config.botToken,
      adminIds: config.adminIds,
      adminChatId: config.adminChatId,
      publicIp: config.publicIp,
      defaultLocale: config.defaultLocale,
      conversationTimeoutMs: options.conversationTimeoutMs ?? 15 * 60_000,
    },
    logger,
    store,
    providers,
    services,
    now,
  };
  const botConfig: BotConfig<BotContext> = { ...options.botConfig, client: { apiRoot: config.telegramApiRoot, ...options.botConfig?.client } };
  const bot = createBot(deps, botConfig);
  return { bot, deps, store, services, providers, logger, close: () => store.close() };
}
