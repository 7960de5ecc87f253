/**
 * `npm run sandbox`: serves the three simulated providers on loopback for demos and manual tests.
 * SANDBOX_PORT (default 8787) and SANDBOX_HOST (default 127.0.0.1) choose where.
 */
import { startSandbox } from './server.ts';
import { resellerDemoAccounts } from './reseller.ts';
import { marketplaceDemoAccounts, marketplaceDemoPurchaseCodes } from './marketplace.ts';
import { gameshopDemoKeys } from './gameshop.ts';

const port = Number(process.env.SANDBOX_PORT ?? 8787);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`SANDBOX_PORT must be a port number (0-65535), got "${process.env.SANDBOX_PORT}".`);
  process.exit(1);
}
const settleAfterMs = Number(process.env.SANDBOX_SETTLE_MS ?? 20000);

const sandbox = await startSandbox({
  port,
  host: process.env.SANDBOX_HOST ?? '127.0.0.1',
  reseller: { settleAfterMs },
});

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
