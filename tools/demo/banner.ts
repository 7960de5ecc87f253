/**
 * What `npm run demo` prints once the bot polls: where the chat page is, who you are, the demo
 * credentials (the table in README "Demo credentials", from the sandbox's own records) and what
 * to try.
 */
import { gameshopDemoKeys, gameshopDemoPromos } from '../sandbox/gameshop.ts';
import { marketplaceDemoAccounts, marketplaceDemoPurchaseCodes } from '../sandbox/marketplace.ts';
import { resellerDemoAccounts } from '../sandbox/reseller.ts';
import type { Demo } from './demo.ts';
import { controlPrefix } from '../sandbox/server.ts';
import { demoDownline } from './seed.ts';

const rupiah = (n: number) => `Rp ${n.toLocaleString('id-ID')}`;

const resellerNotes: Record<string, string> = {
  poor: 'shows "saldo tidak mencukupi"',
  blocked: 'always 403 (IP not whitelisted)',
};

/** The demo credentials as rows: service, account, credentials, notes. */
export function demoCredentialRows(): string[][] {
  const rows: string[][] = [];
  for (const [name, account] of Object.entries(resellerDemoAccounts)) {
    const notes = [rupiah(account.balance), resellerNotes[name]].filter(Boolean).join(': ');
    rows.push(['reseller', name, `API ID ${account.apiId}  key ${account.apiKey}`, notes]);
  }
  for (const [name, account] of Object.entries(marketplaceDemoAccounts))
    rows.push(['marketplace', name, account.apiKey, `seller ${account.username}`]);
  for (const [name, key] of Object.entries(gameshopDemoKeys)) rows.push(['game shop', name, key, '']);
  return rows;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map(
      (row) =>
        '  ' +
        row
          .map((cell, column) => cell.padEnd(widths[column]!))
          .join('  ')
          .trimEnd(),
    )
    .join('\n');
}

export function demoBanner(demo: Demo): string {
  const promos = gameshopDemoPromos.map((p) => p.code).join(', ');
  const data = demo.temporaryData
    ? `${demo.dataDir} (temporary, removed when the demo stops; a new encryption key each run)`
    : `${demo.dataDir} (kept; use the same ENCRYPTION_KEY next time)`;
  const upline = demo.firstUser.user.first_name;
  const downline = demo.downlineUser.user.first_name;
  const who =
    demo.seeded === 'seeded'
      ? `  You are ${upline} (id ${demo.firstUser.id}, an admin here), connected to the demo reseller account "main" and an upline
  (/downline: level ${demoDownline.level} = your cost + ${demoDownline.markup}). Say /start; /hubungkan connects another demo account.
  ${downline} (id ${demo.downlineUser.id}) is your downline at ${demoDownline.level} with ${rupiah(demoDownline.wallet)} in the wallet: switch to them on the
  page's left ("You are"). As ${downline}: /saldo, /deposit 50000; as ${upline}: ✅ Terima on the ticket; as ${downline}: the credit,
  then TSEL10.081234567890 at the ${demoDownline.level} price from the wallet, TSEL10.081234560000 (fails: refunded), /saldo, /mutasi.`
      : `  You are ${upline} (id ${demo.firstUser.id}), ${downline} is user ${demo.downlineUser.id}: the kept data directory has them as they were.`;
  return `
kiosbot demo is running: sandbox providers, playground and bot, all on this machine.

  Open the chat page:  ${demo.pageUrl}
${who}

Demo credentials (sandbox only):
${table([['service', 'account', 'credentials', 'notes'], ...demoCredentialRows()])}

Try a purchase: TSEL10.081234567890 — it stays Pending, then settles to Sukses after ${demo.settleAfterMs / 1000} s (SANDBOX_SETTLE_MS).
A target ending in 0000 fails (Gagal, refunded); one ending in 9999 stays Pending.
Marketplace purchase codes: ${marketplaceDemoPurchaseCodes.supported} (support active), ${marketplaceDemoPurchaseCodes.expired} (expired).
Game shop promo codes: ${promos}.
Inline prices: type @${demo.playground.botInfo.username} tsel 10 in the message box, then pick a product to post its card.
Price alerts: /pantau, then change a price (checked every ${demo.priceWatchMinutes} min, PRICE_WATCH_MINUTES):
  curl -X PATCH ${demo.sandbox.url}${controlPrefix}/TSEL10 -d '{"price": 11000, "status": "gangguan"}'
Data: ${data}

Ctrl+C stops everything.`;
}
