/**
 * `npm run sandbox`: serves the three simulated providers on loopback for demos and manual tests.
 * Reads `.env` like the bot. SANDBOX_PORT (default 8787), SANDBOX_HOST (default 127.0.0.1) and
 * SANDBOX_SETTLE_MS (default 20000) choose where and how fast Pending transactions settle.
 */
import { listenOrExplain, loadDotEnv, portFromEnv, runTool } from '../cli.ts';
import { startSandbox } from './server.ts';
import { resellerDemoAccounts } from './reseller.ts';
import { marketplaceDemoAccounts, marketplaceDemoPurchaseCodes } from './marketplace.ts';
import { gameshopDemoKeys } from './gameshop.ts';

runTool(async () => {
  loadDotEnv();
  const port = portFromEnv(process.env, 'SANDBOX_PORT', 8787);
  const host = process.env.SANDBOX_HOST?.trim() || '127.0.0.1';
  const settleAfterMs = Number(process.env.SANDBOX_SETTLE_MS ?? 20000);

  const sandbox = await listenOrExplain('the sandbox', 'SANDBOX_PORT', { host, port }, () =>
    startSandbox({ port, host, reseller: { settleAfterMs } }),
  );

  console.log(`kiosbot sandbox providers are listening:
  RESELLER_API_URL=${sandbox.urls.reseller}
  MARKETPLACE_API_URL=${sandbox.urls.marketplace}
  GAMESHOP_API_URL=${sandbox.urls.gameshop}

Demo credentials (sandbox only):
${JSON.stringify({ reseller: resellerDemoAccounts, marketplace: marketplaceDemoAccounts, marketplacePurchaseCodes: marketplaceDemoPurchaseCodes, gameshop: gameshopDemoKeys }, null, 2)}

Pending transactions settle after ${settleAfterMs / 1000} s (SANDBOX_SETTLE_MS). Ctrl+C stops.`);

  const stop = () => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
});
